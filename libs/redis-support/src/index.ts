export * from './fail-fast-redis';
