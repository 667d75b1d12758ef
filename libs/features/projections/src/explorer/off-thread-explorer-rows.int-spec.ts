import type { LogSink } from '@bpc/support';
import { botRequestRecorded, envelope, EventEnvelope, SEARCH_PERFORMANCE_RECORDED } from '@bpc/events';
import { botRequestPayload } from '@bpc/testing';
import { encodeExplorerRows } from './explorer-rows';
import { OffThreadExplorerRows } from './off-thread-explorer-rows';

const silent: LogSink = { info: () => undefined, warn: () => undefined, error: () => undefined };

const botRequest = (n: number): EventEnvelope => {
  const payload = botRequestPayload(n);
  return botRequestRecorded(payload, { id: `e${n}`, occurredAt: payload.servedAt });
};
const searchDay = envelope(
  SEARCH_PERFORMANCE_RECORDED,
  1,
  { websiteId: 'w0', date: '2026-11-01', grain: 'query', rows: [{ key: 'prerender «cache»', clicks: 3, impressions: 40, position: 2.5 }], source: 'search-console-csv' },
  { id: 's1', occurredAt: new Date(Date.UTC(2026, 10, 2)), key: 'w0' },
);
const unknown = envelope('SomethingElseHappened', 1, { n: 1 }, { id: 'x1', occurredAt: new Date(0), key: 'w0' });
const bytesOf = (event: EventEnvelope): Buffer => Buffer.from(JSON.stringify(event));

describe('OffThreadExplorerRows', () => {
  let rows: OffThreadExplorerRows;
  beforeEach(() => {
    rows = new OffThreadExplorerRows(silent);
  });
  afterEach(() => rows.close());

  it("serialises the rows of stored events byte for byte as this thread would, and reports what it skipped by index", async () => {
    const events = [...Array.from({ length: 500 }, (_, n) => botRequest(n)), searchDay, unknown, botRequest(500)];
    const [offThread, here] = [await rows.encode(events.map(bytesOf)), encodeExplorerRows(events)];
    expect([...offThread.tables.keys()].sort()).toEqual(['bot_requests', 'search_day_imports', 'search_query_daily']);
    for (const [table, encoded] of here.tables) {
      expect(offThread.tables.get(table)?.count).toBe(encoded.count);
      expect(offThread.tables.get(table)?.jsonEachRow.equals(encoded.jsonEachRow)).toBe(true);
    }
    expect(offThread.tables.get('bot_requests')?.count).toBe(501);
    expect(offThread.skipped).toEqual([{ index: 501, type: 'SomethingElseHappened' }]);
  });

  it('rejects a batch it cannot parse, and answers the next one', async () => {
    await expect(rows.encode([bytesOf(botRequest(1)), Buffer.from('{"type":')])).rejects.toThrow(/JSON/);
    const next = await rows.encode([bytesOf(botRequest(2))]);
    expect(next.tables.get('bot_requests')?.count).toBe(1);
  });

  it('answers concurrent batches each with its own rows, and close waits for them', async () => {
    const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 50 + b }, (_, n) => botRequest(b * 100 + n)));
    const answers = Promise.all(batches.map((batch) => rows.encode(batch.map(bytesOf))));
    await rows.close();
    const counted = (await answers).map((a) => a.tables.get('bot_requests')?.count);
    expect(counted).toEqual(batches.map((b) => b.length));
    await expect(rows.encode([bytesOf(botRequest(1))])).rejects.toThrow(/closed/);
  });
});
