import { asQueueEvent, RECACHE_REQUESTED } from '@bpc/events';
import type { EventEnvelope } from '@bpc/events';

export const RECACHE_RECEIPTS_TABLE = 'recache_receipts';

/**
 * The receipt rows one queue-topic event contributes (pure): one per URL ×
 * dimension of a RecacheRequested that carries a receipt id; nothing for any
 * other event (requests recorded before receipts existed have none).
 */
export function receiptRows(event: EventEnvelope): Record<string, unknown>[] {
  const queueEvent = asQueueEvent(event);
  if (queueEvent?.type !== RECACHE_REQUESTED) return [];
  const { receiptId, hostId, urls, dimensionIds, source, priority } = queueEvent.payload;
  if (!receiptId) return [];
  return urls.flatMap((url) =>
    dimensionIds.map((dimensionId) => ({
      receipt_id: receiptId,
      host_id: hostId,
      url,
      dimension_id: dimensionId,
      source,
      priority,
      requested_at: queueEvent.occurredAt,
      event_id: queueEvent.id,
    })),
  );
}

/** Whether a stored record may carry a receipt: a cheap look at its bytes spares parsing the (many) other queue events. */
export function mayCarryReceipt(payload: Buffer | undefined): boolean {
  return payload === undefined || payload.includes('"receiptId"');
}
