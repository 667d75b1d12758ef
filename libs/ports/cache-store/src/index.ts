export * from './cache-store.port';
export { isFresh, isRedirect, putDecision } from './cache-entry-rules';
export { FileCacheStore, CACHE_STATE_FILE } from './file-cache-store';
export type { FileCacheStoreOptions } from './file-cache-store';
export { RedisCacheStore, CacheStoreUnavailableError } from './redis-cache-store';
export type { RedisCacheStoreOptions } from './redis-cache-store';
export { DEFAULT_BODY_REMOVAL_DELAY_MS } from './body-files';
export { DEFAULT_RESULT_TTL_MS as CACHE_RESULT_TTL_MS } from '@bpc/projection-state';
