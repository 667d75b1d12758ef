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
import type { ProjectionPosition, QueueStore } from '@bpc/queue-store';

/**
 * Applies one queue-topic event to the queue store. The position makes a
 * redelivered event a no-op (at-least-once delivery, exactly-once effect).
 * A final outcome settles its entry, so a store rebuilt from the log holds
 * what the live store held (live, the scheduler has already released its
 * claim and this changes nothing). Retries stay inside the daemon, and
 * cache and scheduler-switch events change no queue. A request recorded
 * `settled` (with its outcomes, after the work was done: demo data) queues
 * nothing: queued with its past time it would be due at once, and the
 * scheduler could claim it, or a live entry of the same key would answer to
 * it, before its outcomes are applied.
 */
export async function applyQueueEvent(store: QueueStore, event: QueueEvent, position: ProjectionPosition): Promise<void> {
  switch (event.type) {
    case RECACHE_REQUESTED: {
      if (event.payload.settled === true) return;
      const { hostId, urls, dimensionIds, priority, mode, source } = event.payload;
      const items = urls.flatMap((url) => dimensionIds.map((dimensionId) => (mode ? { url, dimensionId, mode } : { url, dimensionId })));
      // Render history tells a sitemap's renders from other normal-priority ones by the entry's trigger.
      const trigger = source === 'sitemap' ? { trigger: 'sitemap' as const } : {};
      await store.enqueue({ hostId, priority, dueAt: Date.parse(event.occurredAt), items, entryId: event.id, ...trigger }, position);
      return;
    }
    case AUTORECACHE_SCHEDULED: {
      const { hostId, url, dimensionId, dueAt } = event.payload;
      await store.enqueue({ hostId, priority: 'autorecache', dueAt, items: [{ url, dimensionId }], entryId: event.id }, position);
      return;
    }
    case QUEUE_PURGED:
      await store.purge(event.payload.hostId, event.payload.priorities, position);
      return;
    case HOST_RECACHE_PAUSED:
      await store.pause(event.payload.hostId, event.payload.expiresAt, position);
      return;
    case HOST_RECACHE_RESUMED:
      await store.resume(event.payload.hostId, position);
      return;
    case RECACHE_SUCCEEDED:
    case RECACHE_GAVE_UP: {
      const { hostId, url, dimensionId, entryId } = event.payload;
      await store.settle(hostId, url, dimensionId, entryId, position);
      return;
    }
    case CACHE_INVALIDATED:
    case SCHEDULER_PAUSED:
    case SCHEDULER_RESUMED:
    case RECACHE_RETRY_SCHEDULED:
      return;
    default:
      return assertNever(event);
  }
}
