import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BotRequestRecorded, botRequestRecorded, encodeBotRequests, envelope, type CacheStatus } from '@bpc/events';
import type { StoredPayloads } from '@bpc/event-log';
import { ChdbExecutor, encodeRows } from '@bpc/explorer-store';
import pino from 'pino';
import { botRequestPayload } from '@bpc/testing';
import { BOT_REQUEST_EVENTS_TABLE, BOT_REQUESTS_TABLE, botRequestRow } from './explorer-projection';
import { allStoredBotRequests, isStoredBotRequest, jsonLines, jsonLinesOf } from './explorer-rows';
import { BufferedExplorerWriter, checkpointOf } from './buffered-explorer-writer';
import { EXPLORER_DDL_DIR } from './explorer-ddl';

const STATUSES: readonly CacheStatus[] = ['hit', 'miss', 'stale', 'bypass'];
const events = (prefix: string): BotRequestRecorded[] =>
  Array.from({ length: 40 }, (_, n) => {
    const payload = { ...botRequestPayload(n), cacheStatus: STATUSES[n % 4], statusCode: [200, 301, 404, 504][n % 4] };
    return botRequestRecorded(payload, { id: `${prefix}-${n}`, occurredAt: payload.servedAt });
  });

/** Payloads side by side as the file log reads them back: each behind a frame-sized gap of other bytes. */
function storedPayloads(payloads: readonly Buffer[], firstOffset: number): StoredPayloads {
  const gap = Buffer.alloc(16, 0x7b);
  const buffer = Buffer.concat(payloads.flatMap((p) => [gap, p]));
  const starts = new Uint32Array(payloads.length);
  const ends = new Uint32Array(payloads.length);
  for (let i = 0, at = 0; i < payloads.length; i++) {
    starts[i] = at + gap.length;
    ends[i] = at = starts[i] + payloads[i].length;
  }
  return { buffer, firstOffset, count: payloads.length, starts, ends };
}

describe('bot_request_events: stored bot requests into bot_requests through the view', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bot-request-events-'));
  let store: ChdbExecutor;
  beforeAll(async () => {
    store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rowsOf = (prefix: string) =>
    store.query<Record<string, unknown>>(`SELECT * EXCEPT event_id, toString(ts) AS ts FROM ${BOT_REQUESTS_TABLE} WHERE startsWith(event_id, {prefix:String}) ORDER BY request_id`, { prefix: `${prefix}-` });

  it('stores exactly the rows botRequestRow gives, for events as JSON.stringify and encodeBotRequests write them, once per token', async () => {
    const asRows = events('rows');
    await store.insert({ table: BOT_REQUESTS_TABLE, rows: encodeRows(asRows.map(botRequestRow)), token: 'rows' });
    const stringified = events('json');
    const batchEncoded = encodeBotRequests(events('batch'));
    for (const [token, payloads] of [['json', stringified.map((e) => Buffer.from(JSON.stringify(e)))], ['batch', batchEncoded.map((e) => e.json)]] as const) {
      expect(payloads.every(isStoredBotRequest)).toBe(true);
      await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonLines(payloads), token });
      await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonLines(payloads), token });
    }
    const expected = await rowsOf('rows');
    expect(expected).toHaveLength(40);
    expect(await rowsOf('json')).toEqual(expected);
    expect(await rowsOf('batch')).toEqual(expected);
    const ids = await store.query<{ event_id: string }>(`SELECT event_id FROM ${BOT_REQUESTS_TABLE} WHERE startsWith(event_id, 'json-') ORDER BY event_id`);
    expect(ids.map((r) => r.event_id)).toEqual(stringified.map((e) => e.id).sort());
  });

  it('takes events whose envelope has fields it does not map (a later envelope field), and still refuses a malformed one', async () => {
    const [event] = events('later');
    const withMore = Buffer.from(JSON.stringify({ ...event, traceId: 't-1', payload: { ...event.payload, region: 'eu' } }));
    await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonLines([withMore]), token: 'later' });
    expect(await store.query(`SELECT request_id FROM ${BOT_REQUESTS_TABLE} WHERE event_id = 'later-0'`)).toEqual([{ request_id: event.payload.requestId }]);
    const broken = Buffer.from(JSON.stringify({ ...event, id: 'broken-0', payload: { ...event.payload, statusCode: 'two hundred' } }));
    await expect(store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonLines([broken]), token: 'broken' })).rejects.toThrow();
  });

  it('writes stored payloads side by side through the writer\'s reused memory: every row intact across many writes, each once', async () => {
    const writer = new BufferedExplorerWriter(store, pino({ level: 'silent' }), { maxRows: 60, maxDelayMs: 5 });
    const batches = Array.from({ length: 12 }, (_, b) => encodeBotRequests(events(`reused${b}`)).map((e) => e.json));
    let offset = 0;
    for (const payloads of batches) {
      const stored = storedPayloads(payloads, offset);
      expect(allStoredBotRequests(stored)).toBe(true);
      await writer.addSerialised('t:0', String(offset), String(offset + payloads.length), BOT_REQUEST_EVENTS_TABLE, (take) => jsonLinesOf(stored, take));
      offset += payloads.length;
    }
    await writer.flush();
    const ids = await store.query<{ event_id: string }>(`SELECT event_id FROM ${BOT_REQUESTS_TABLE} WHERE startsWith(event_id, 'reused') ORDER BY event_id`);
    expect(ids.map((r) => r.event_id)).toEqual(batches.flatMap((_, b) => events(`reused${b}`).map((e) => e.id)).sort());
    await store.insert({ table: BOT_REQUESTS_TABLE, rows: encodeRows(events('expected').map(botRequestRow)), token: 'expected' });
    expect(await rowsOf('reused3')).toEqual(await rowsOf('expected'));
    expect(await checkpointOf(store, 't:0')).toBe(String(offset));
  });

  it('takes as they are only BotRequestRecorded v1 events', () => {
    const [event] = events('x');
    const other = Buffer.from(JSON.stringify(envelope('SearchPerformanceRecorded', 1, {}, { id: 's', occurredAt: new Date(0), key: 'w' })));
    expect(allStoredBotRequests(storedPayloads([Buffer.from(JSON.stringify(event)), other], 0))).toBe(false);
    expect(isStoredBotRequest(Buffer.from(JSON.stringify(event)))).toBe(true);
    expect(isStoredBotRequest(Buffer.from(JSON.stringify({ ...event, version: 2 })))).toBe(false);
    expect(isStoredBotRequest(Buffer.from(JSON.stringify(envelope('SearchPerformanceRecorded', 1, {}, { id: 's', occurredAt: new Date(0), key: 'w' }))))).toBe(false);
    expect(isStoredBotRequest(Buffer.from('{"type":"BotRequestRecorded","version":1,"id":'))).toBe(false);
  });
});
