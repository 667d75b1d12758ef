export * from './queue-store.port';
