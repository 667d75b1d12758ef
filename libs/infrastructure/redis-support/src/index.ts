export * from './fail-fast-redis';
export * from './redis-key-tracking';
export * from './positioned-mutation-lua';
