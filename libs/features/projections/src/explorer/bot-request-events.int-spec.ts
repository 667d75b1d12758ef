import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BotRequestRecorded, botRequestRecorded, type BotRequestRecordedPayload, type CurrentBotRequestRecordedPayload, envelope, recordedBotRequestEvent, type CacheStatus } from '@bpc/events';
import { BOT_REQUEST_EVENTS_TABLE, BOT_REQUESTS_TABLE, ChdbExecutor, EXPLORER_DDL_DIR, JsonLines } from '@bpc/explorer-store';
import { botRequestPayload } from '@bpc/testing';
import { intakeOfStored } from './explorer-projection';

/** The `bot_requests` row of an event, as the spec of the view's mapping (ts as ClickHouse prints it; fields an older event lacks read as their defaults). */
const expectedRow = ({ id, payload: p }: BotRequestRecorded): Record<string, unknown> => ({
  website: p.websiteId, host: p.host, url: p.url, page_title: p.pageTitle, status_code: p.statusCode, bot_name: p.botName, user_agent: p.userAgent,
  dimension_id: p.dimensionId, dimension_name: p.dimensionName, cache_status: p.cacheStatus, serve_time_ms: p.serveTimeMs, snapshot_age_s: p.snapshotAgeS,
  bytes: p.bytes, ts: p.servedAt.replace('T', ' ').replace('Z', ''), request_id: p.requestId, event_id: id,
  format: p.format ?? 'html', bot_category: p.botCategory ?? 'other', bot_operator: p.botOperator ?? 'unknown', verified: p.verified ?? 'unknown', robots_allowed: p.robotsAllowed ?? 'unknown',
});
/** An event as recorded before format, botCategory, botOperator, verified and robotsAllowed were added. */
const ADDED_FIELDS: readonly string[] = ['format', 'botCategory', 'botOperator', 'verified', 'robotsAllowed'];
const olderShape = (event: BotRequestRecorded): BotRequestRecorded => ({
  ...event,
  payload: Object.fromEntries(Object.entries(event.payload).filter(([field]) => !ADDED_FIELDS.includes(field))) as BotRequestRecordedPayload,
});
/** The DDL files of the explorer store as first released, before 009_bot_request_fields.sql. */
const FIRST_RELEASED_DDL = ['bot-requests/001_bot_requests.sql', 'bot-requests/004_bot_request_events.sql'];
const byRequestId = (a: Record<string, unknown>, b: Record<string, unknown>): number => String(a.request_id).localeCompare(String(b.request_id));
const jsonRows = (payloads: readonly Buffer[]): JsonLines[] => [JsonLines.of(payloads)];

const STATUSES: readonly CacheStatus[] = ['hit', 'miss', 'stale', 'bypass'];
const events = (prefix: string): Array<BotRequestRecorded & { payload: CurrentBotRequestRecordedPayload }> =>
  Array.from({ length: 40 }, (_, n) => {
    const payload = { ...botRequestPayload(n), cacheStatus: STATUSES[n % 4], statusCode: [200, 301, 404, 504][n % 4] };
    return { ...botRequestRecorded(payload, { id: `${prefix}-${n}`, occurredAt: payload.servedAt }), payload };
  });

describe('bot_request_events: stored bot requests into bot_requests through the view', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bot-request-events-'));
  let store: ChdbExecutor;
  // The database is created as first released and holds a request before it
  // is migrated to the current DDL (twice: every boot runs it again), so these
  // tests run on an upgraded database; every other suite creates new ones.
  const before = events('before')[0];
  beforeAll(async () => {
    const firstDdl = path.join(dir, 'first-ddl');
    for (const file of FIRST_RELEASED_DDL) {
      mkdirSync(path.dirname(path.join(firstDdl, file)), { recursive: true });
      copyFileSync(path.join(EXPLORER_DDL_DIR, file), path.join(firstDdl, file));
    }
    const first = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: firstDdl });
    await first.migrate();
    await first.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonRows([Buffer.from(JSON.stringify(olderShape(before)))]), token: 'before' });
    await first.close();
    store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rowsOf = (prefix: string) =>
    store.query<Record<string, unknown>>(`SELECT * EXCEPT ts, toString(ts) AS ts FROM ${BOT_REQUESTS_TABLE} WHERE startsWith(event_id, {prefix:String}) ORDER BY request_id`, { prefix: `${prefix}-` });

  it('maps events to their rows, given as objects, as JSON.stringify writes them and as the edge records them, once per token', async () => {
    const asObjects = events('rows');
    await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: asObjects.map((e) => ({ ...e })), token: 'rows' });
    const stringified = events('json');
    const recorded = events('batch').map(({ id, payload: { servedAt, ...rest } }) => recordedBotRequestEvent({ ...rest, servedAtMs: Date.parse(servedAt) }, id));
    for (const [token, list] of [['json', stringified], ['batch', recorded]] as const) {
      const payloads = list.map((e) => Buffer.from(JSON.stringify(e)));
      expect(payloads.map(intakeOfStored)).toEqual(payloads.map(() => BOT_REQUEST_EVENTS_TABLE));
      await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonRows(payloads), token });
      await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonRows(payloads), token });
    }
    expect(await rowsOf('rows')).toEqual(asObjects.map(expectedRow).sort(byRequestId));
    expect(await rowsOf('json')).toEqual(stringified.map(expectedRow).sort(byRequestId));
    expect(await rowsOf('batch')).toEqual(recorded.map(expectedRow).sort(byRequestId));
    const ids = await store.query<{ event_id: string }>(`SELECT event_id FROM ${BOT_REQUESTS_TABLE} WHERE startsWith(event_id, 'json-') ORDER BY event_id`);
    expect(ids.map((r) => r.event_id)).toEqual(stringified.map((e) => e.id).sort());
  });

  it('reads a request stored before the migration with the defaults of the fields added since', async () => {
    expect(await rowsOf('before')).toEqual([expectedRow(olderShape(before))]);
    expect((await rowsOf('before'))[0]).toMatchObject({ format: 'html', bot_category: 'other', bot_operator: 'unknown', verified: 'unknown', robots_allowed: 'unknown' });
  });

  it('projects events of the older shape (without the added fields) with their defaults, stored or as objects, beside current ones', async () => {
    const current = events('mixed');
    const older = events('older').map(olderShape);
    const stored = [...current, ...older].map((e) => Buffer.from(JSON.stringify(e)));
    expect(stored.map(intakeOfStored)).toEqual(stored.map(() => BOT_REQUEST_EVENTS_TABLE));
    await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonRows(stored), token: 'mixed' });
    const asObjects = events('aged-objects').map(olderShape);
    await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: asObjects.map((e) => ({ ...e })), token: 'aged-objects' });
    expect(await rowsOf('mixed')).toEqual(current.map(expectedRow).sort(byRequestId));
    expect(await rowsOf('older')).toEqual(older.map(expectedRow).sort(byRequestId));
    expect(await rowsOf('aged-objects')).toEqual(asObjects.map(expectedRow).sort(byRequestId));
    expect(new Set((await rowsOf('mixed')).map((r) => r.bot_category))).toEqual(new Set(['search', 'ai_assistant']));
  });

  it('stores a value of an added field it does not know as it is, never refusing the batch', async () => {
    const [event] = events('unknown-value');
    const later = { ...event, payload: { ...event.payload, format: 'text', botCategory: 'ai_agentic', botOperator: 'Example "AI" Ltd', verified: 'maybe' } };
    await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonRows([Buffer.from(JSON.stringify(later))]), token: 'unknown-value' });
    expect((await rowsOf('unknown-value'))[0]).toMatchObject({ format: 'text', bot_category: 'ai_agentic', bot_operator: 'Example "AI" Ltd', verified: 'maybe' });
  });

  it('takes events whose envelope has fields it does not map (a later envelope field), and still refuses a malformed one', async () => {
    const [event] = events('later');
    const withMore = Buffer.from(JSON.stringify({ ...event, traceId: 't-1', payload: { ...event.payload, region: 'eu' } }));
    await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonRows([withMore]), token: 'later' });
    expect(await store.query(`SELECT request_id FROM ${BOT_REQUESTS_TABLE} WHERE event_id = 'later-0'`)).toEqual([{ request_id: event.payload.requestId }]);
    const broken = Buffer.from(JSON.stringify({ ...event, id: 'broken-0', payload: { ...event.payload, statusCode: 'two hundred' } }));
    await expect(store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: jsonRows([broken]), token: 'broken' })).rejects.toThrow();
  });

  it('takes as they are only BotRequestRecorded v1 events as envelope() writes them; others are parsed', () => {
    const [event] = events('x');
    expect(intakeOfStored(Buffer.from(JSON.stringify(event)))).toBe(BOT_REQUEST_EVENTS_TABLE);
    expect(intakeOfStored(Buffer.from(JSON.stringify({ ...event, version: 2 })))).toBeUndefined();
    const { type, ...rest } = event;
    expect(intakeOfStored(Buffer.from(JSON.stringify({ ...rest, type })))).toBeUndefined();
    expect(intakeOfStored(Buffer.from(JSON.stringify(envelope('SearchPerformanceRecorded', 1, {}, { id: 's', occurredAt: new Date(0), key: 'w' }))))).toBeUndefined();
    expect(intakeOfStored(Buffer.from('{"type":"BotRequestRecorded","version":1,"id":'))).toBeUndefined();
  });
});
