import { asQueueEvent, QUEUE_PURGED, RECACHE_REQUESTED } from '@bpc/events';
import type { EventEnvelope } from '@bpc/events';
import { RECACHE_PURGES_TABLE, RECACHE_RECEIPTS_TABLE, type RecachePurgeRow, type RecacheReceiptRow } from '@bpc/explorer-store';

/**
 * The rows one queue-topic event contributes to the receipt tables (pure):
 * one per URL × dimension of a RecacheRequested that carries a receipt id
 * (`recache_receipts`), one per QueuePurged (`recache_purges`: what a purge
 * removed ends its receipt entries); nothing for any other event (requests
 * recorded before receipts existed have none).
 */
export function receiptRows(event: EventEnvelope): { table: string; rows: readonly (RecacheReceiptRow | RecachePurgeRow)[] } | undefined {
  const queueEvent = asQueueEvent(event);
  if (queueEvent?.type === QUEUE_PURGED) {
    const { hostId, priorities } = queueEvent.payload;
    return { table: RECACHE_PURGES_TABLE, rows: [{ host_id: hostId, priorities, purged_at: queueEvent.occurredAt, event_id: queueEvent.id }] };
  }
  if (queueEvent?.type !== RECACHE_REQUESTED || !queueEvent.payload.receiptId) return undefined;
  const { receiptId, hostId, urls, dimensionIds, source, priority } = queueEvent.payload;
  const rows = urls.flatMap((url): RecacheReceiptRow[] =>
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
  return { table: RECACHE_RECEIPTS_TABLE, rows };
}

/** Whether a stored record may matter to receipts: a cheap look at its bytes spares parsing the (many) other queue events. */
export function mayCarryReceipt(payload: Buffer | undefined): boolean {
  return payload === undefined || payload.includes('"receiptId"') || payload.includes(`"${QUEUE_PURGED}"`);
}
