import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BotRequestRecorded, botRequestRecorded, envelope, recordedBotRequestEvent, type CacheStatus } from '@bpc/events';
import { ChdbExecutor, encodeRows } from '@bpc/explorer-store';
import { botRequestPayload } from '@bpc/testing';
import { BOT_REQUEST_EVENTS_TABLE, BOT_REQUESTS_TABLE, botRequestRow } from './explorer-projection';
import { isStoredBotRequest, jsonLines } from './explorer-rows';
import { EXPLORER_DDL_DIR } from './explorer-ddl';

const STATUSES: readonly CacheStatus[] = ['hit', 'miss', 'stale', 'bypass'];
const events = (prefix: string): BotRequestRecorded[] =>
  Array.from({ length: 40 }, (_, n) => {
    const payload = { ...botRequestPayload(n), cacheStatus: STATUSES[n % 4], statusCode: [200, 301, 404, 504][n % 4] };
    return botRequestRecorded(payload, { id: `${prefix}-${n}`, occurredAt: payload.servedAt });
  });

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

  it('stores exactly the rows botRequestRow gives, for events as JSON.stringify writes them and as the edge records them, once per token', async () => {
    const asRows = events('rows');
    await store.insert({ table: BOT_REQUESTS_TABLE, rows: encodeRows(asRows.map(botRequestRow)), token: 'rows' });
    const stringified = events('json');
    const recorded = events('batch').map(({ id, payload: { servedAt, ...rest } }) => recordedBotRequestEvent({ ...rest, servedAtMs: Date.parse(servedAt) }, id));
    for (const [token, list] of [['json', stringified], ['batch', recorded]] as const) {
      const payloads = list.map((e) => Buffer.from(JSON.stringify(e)));
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

  it('takes as they are only BotRequestRecorded v1 events', () => {
    const [event] = events('x');
    expect(isStoredBotRequest(Buffer.from(JSON.stringify(event)))).toBe(true);
    expect(isStoredBotRequest(Buffer.from(JSON.stringify({ ...event, version: 2 })))).toBe(false);
    expect(isStoredBotRequest(Buffer.from(JSON.stringify(envelope('SearchPerformanceRecorded', 1, {}, { id: 's', occurredAt: new Date(0), key: 'w' }))))).toBe(false);
    expect(isStoredBotRequest(Buffer.from('{"type":"BotRequestRecorded","version":1,"id":'))).toBe(false);
  });
});
