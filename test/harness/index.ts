export * from './engines';
export * from './env';
