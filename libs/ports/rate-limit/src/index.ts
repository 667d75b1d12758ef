export * from './rate-limit-store.port';
export * from './memory-rate-limit-store';
export * from './redis-rate-limit-store';
