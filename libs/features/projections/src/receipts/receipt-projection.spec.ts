import { HOST_RECACHE_RESUMED, newQueueEvent, QUEUE_PURGED, RECACHE_REQUESTED } from '@bpc/events';
import { mayCarryReceipt, receiptRows } from './receipt-projection';

describe('receipt projection', () => {
  const T = Date.parse('2026-11-28T02:00:00Z');
  const payload = { hostId: 1, urls: ['https://www.example.com/a', 'https://www.example.com/b'], dimensionIds: [1, 2], priority: 'high' as const, source: 'public-api' as const };

  it('gives one row per URL × dimension of a receipted request', () => {
    const event = newQueueEvent(RECACHE_REQUESTED, { ...payload, receiptId: 'r-1' }, '1', T);
    const { table, rows } = receiptRows(event)!;
    expect(table).toBe('recache_receipts');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toEqual({ receipt_id: 'r-1', host_id: 1, url: 'https://www.example.com/a', dimension_id: 2, source: 'public-api', priority: 'high', requested_at: new Date(T).toISOString(), event_id: event.id });
  });

  it('gives one row per purge, which ends the purged entries of receipts', () => {
    const purge = newQueueEvent(QUEUE_PURGED, { hostId: 1, priorities: ['high', 'normal'] }, '1', T);
    expect(receiptRows(purge)).toEqual({ table: 'recache_purges', rows: [{ host_id: 1, priorities: ['high', 'normal'], purged_at: new Date(T).toISOString(), event_id: purge.id }] });
    expect(mayCarryReceipt(Buffer.from(JSON.stringify(purge)))).toBe(true);
  });

  it('gives nothing for a request without receipt or another event', () => {
    expect(receiptRows(newQueueEvent(RECACHE_REQUESTED, payload, '1', T))).toBeUndefined();
    expect(receiptRows(newQueueEvent(HOST_RECACHE_RESUMED, { hostId: 1 }, '1', T))).toBeUndefined();
  });

  it('parses only stored records that may carry a receipt', () => {
    expect(mayCarryReceipt(Buffer.from(JSON.stringify(newQueueEvent(RECACHE_REQUESTED, { ...payload, receiptId: 'r-1' }, '1', T))))).toBe(true);
    expect(mayCarryReceipt(Buffer.from(JSON.stringify(newQueueEvent(RECACHE_REQUESTED, payload, '1', T))))).toBe(false);
    expect(mayCarryReceipt(undefined)).toBe(true);
  });
});
