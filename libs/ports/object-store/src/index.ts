export * from './object-store.port';
export { assertObjectKey, assertObjectPrefix } from './object-key';
export { FileObjectStore } from './file-object-store';
