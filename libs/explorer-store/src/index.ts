export * from './explorer-store.port';
