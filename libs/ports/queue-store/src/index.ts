export * from './queue-store.port';
export { MemoryQueueStore, QUEUE_STORE_SNAPSHOT_VERSION } from './memory-queue-store';
export type { MemoryQueueStoreOptions, QueueStoreSnapshot, SnapshotEntry } from './memory-queue-store';
export { RedisQueueStore, QueueStoreUnavailableError } from './redis-queue-store';
export type { RedisQueueStoreOptions } from './redis-queue-store';
export { DEFAULT_RESULT_TTL_MS } from '@bpc/projection-state';
export { MemoryQueueStoreSnapshots, QUEUE_SNAPSHOT_FILE } from './memory-queue-store-snapshots';
