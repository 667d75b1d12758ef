export * from './fail-fast-redis';
export * from './redis-key-tracking';
