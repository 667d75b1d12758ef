export * from './object-store.port';
export { assertObjectKey, assertObjectPrefix } from './object-key';
