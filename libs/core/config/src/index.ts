export * from './config.schema';
export * from './config-error';
export * from './load-config';
export * from './env-overrides';
export { demoSitePort } from './cross-checks';
