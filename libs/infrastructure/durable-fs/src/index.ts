export * from './durable-fs';
export * from './file-io';
