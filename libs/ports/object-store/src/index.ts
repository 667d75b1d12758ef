export * from './object-store.port';
export { assertObjectKey, assertObjectPrefix } from './object-key';
export { FileObjectStore } from './file-object-store';
export { S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store';
