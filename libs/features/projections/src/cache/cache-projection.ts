import type { CacheStore } from '@bpc/cache-store';
import { assertNever } from '@bpc/domain';
import {
  AUTORECACHE_SCHEDULED,
  CACHE_INVALIDATED,
  HOST_RECACHE_PAUSED,
  HOST_RECACHE_RESUMED,
  QUEUE_PURGED,
  QueueEvent,
  RECACHE_GAVE_UP,
  RECACHE_REQUESTED,
  RECACHE_RETRY_SCHEDULED,
  RECACHE_SUCCEEDED,
  SCHEDULER_PAUSED,
  SCHEDULER_RESUMED,
} from '@bpc/events';
import type { ProjectionPosition } from '@bpc/queue-store';

/**
 * Applies one queue-topic event to the cache metadata: only invalidation
 * drops entries (stored pages are written by the refresher itself).
 */
export async function applyCacheEvent(store: CacheStore, event: QueueEvent, position: ProjectionPosition): Promise<void> {
  switch (event.type) {
    case CACHE_INVALIDATED:
      await store.invalidate(event.payload.hostId, event.payload.urls, event.payload.dimensionIds, position);
      return;
    case RECACHE_REQUESTED:
    case QUEUE_PURGED:
    case HOST_RECACHE_PAUSED:
    case HOST_RECACHE_RESUMED:
    case SCHEDULER_PAUSED:
    case SCHEDULER_RESUMED:
    case RECACHE_SUCCEEDED:
    case RECACHE_RETRY_SCHEDULED:
    case RECACHE_GAVE_UP:
    case AUTORECACHE_SCHEDULED:
      return;
    default:
      return assertNever(event);
  }
}
