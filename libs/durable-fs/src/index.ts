export * from './durable-fs';
