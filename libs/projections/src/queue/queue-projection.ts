import { assertNever } from '@bpc/domain';
import { DomainEvent, RECACHE_REQUESTED } from '@bpc/events';
import type { ProjectionPosition, QueueStore } from '@bpc/queue-store';

/**
 * Applies one queue event to the store. The position makes a redelivered
 * event a no-op (at-least-once delivery, exactly-once effect).
 */
export async function applyQueueEvent(store: QueueStore, event: DomainEvent, position: ProjectionPosition): Promise<void> {
  switch (event.type) {
    case RECACHE_REQUESTED: {
      const { hostId, urls, dimensionIds, priority, mode } = event.payload;
      const items = urls.flatMap((url) => dimensionIds.map((dimensionId) => (mode ? { url, dimensionId, mode } : { url, dimensionId })));
      await store.enqueue({ hostId, priority, dueAt: Date.parse(event.occurredAt), items, entryId: event.id }, position);
      return;
    }
    default:
      return assertNever(event.type);
  }
}
