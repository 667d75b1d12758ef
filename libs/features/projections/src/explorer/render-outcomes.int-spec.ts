import pino from 'pino';
import { Registry } from 'prom-client';
import { envelope, newRenderRecorded, RENDER_OUTCOMES, RENDER_RECORDED, RenderRecorded, RenderRecordedPayload, TOPICS } from '@bpc/events';
import { encodeRows, ExplorerStore } from '@bpc/explorer-store';
import { ReadinessRegistry } from '@bpc/platform';
import { until } from '@bpc/testing';
import { RENDER_OUTCOMES_TABLE, RENDER_RECORDED_EVENTS_TABLE, renderOutcomeRow } from './explorer-projection';
import { isStoredRenderRecorded, jsonLines } from './explorer-rows';
import { ExplorerProjector } from './explorer-projector';
import { CrashAfterInsert, explorerProjectorEngines } from './explorer-projector.fixture';

const logger = pino({ level: 'silent' });
const t0 = Date.parse('2026-11-01T00:00:00Z');

function payload(i: number, hostId = 1): RenderRecordedPayload {
  const edge = i % 5 === 0;
  return {
    hostId,
    url: `https://www.example.com/p${i % 11}?q="${i}"`,
    dimensionId: 1 + (i % 2),
    mode: i % 3 === 0 ? 'bypass' : 'render',
    trigger: edge ? 'edge_miss' : 'recache_normal',
    outcome: RENDER_OUTCOMES[i % RENDER_OUTCOMES.length],
    reason: i % 4 === 0 ? '' : `timed out: the page kept loading (${i})`,
    statusCode: i % 4 === 0 ? 200 : 0,
    renderMs: 100 + i,
    bytes: i * 10,
    attempt: 1 + (i % 3),
    ...(edge ? {} : { entryId: `entry-${i}` }),
  };
}
const fact = (i: number, hostId = 1): RenderRecorded => ({ ...newRenderRecorded(payload(i, hostId), t0 + i * 1000), id: `render-${hostId}-${i}` });

describe('render history: RenderRecorded (bpc.renders.v1) into render_outcomes', () => {
  const engines = explorerProjectorEngines('bpc-render-outcomes-');

  const count = async (hostId = 1) => Number((await engines.store.query<{ n: number }>(`SELECT count() AS n FROM ${RENDER_OUTCOMES_TABLE} FINAL WHERE host_id = {h:UInt32}`, { h: hostId }))[0].n);
  const rowsOf = (prefix: string) =>
    engines.store.query<Record<string, unknown>>(`SELECT * EXCEPT event_id, toString(ts) AS ts FROM ${RENDER_OUTCOMES_TABLE} WHERE startsWith(event_id, {prefix:String}) ORDER BY ts, url`, { prefix });

  it('the intake view writes exactly the rows renderOutcomeRow gives, entry id absent for an edge miss', async () => {
    const events = Array.from({ length: 30 }, (_, i) => fact(i, 7));
    await engines.store.insert({ table: RENDER_OUTCOMES_TABLE, rows: encodeRows(events.map((e) => renderOutcomeRow({ ...e, id: `rows-${e.id}` }))), token: 'rows' });
    const payloads = events.map((e) => Buffer.from(JSON.stringify({ ...e, id: `json-${e.id}` })));
    expect(payloads.every(isStoredRenderRecorded)).toBe(true);
    await engines.store.insert({ table: RENDER_RECORDED_EVENTS_TABLE, rows: jsonLines(payloads), token: 'json' });
    const expected = await rowsOf('rows-');
    expect(expected).toHaveLength(30);
    expect(await rowsOf('json-')).toEqual(expected);
    expect(expected[0]).toMatchObject({ host_id: 7, trigger: 'edge_miss', entry_id: '', outcome: 'stored', ts: '2026-11-01 00:00:00.000' });
    expect(expected[1]).toMatchObject({ trigger: 'recache_normal', entry_id: 'entry-1', outcome: 'kept_blank', reason: 'timed out: the page kept loading (1)' });
  });

  it('tells stored RenderRecorded v1 events from others', () => {
    const event = fact(1);
    expect(isStoredRenderRecorded(Buffer.from(JSON.stringify(event)))).toBe(true);
    expect(isStoredRenderRecorded(Buffer.from(JSON.stringify({ ...event, version: 2 })))).toBe(false);
    expect(isStoredRenderRecorded(Buffer.from(JSON.stringify(envelope('BotRequestRecorded', 1, {}, { id: 'b', occurredAt: new Date(0), key: 'w' }))))).toBe(false);
  });

  it('projects every fact once, through a write that landed but was not checkpointed, a restart and a rebuild', async () => {
    const events = Array.from({ length: 2000 }, (_, i) => fact(i));
    // Rows "from an earlier run" in other batch boundaries: ReplacingMergeTree folds them by event id.
    await engines.store.insert({ table: RENDER_OUTCOMES_TABLE, rows: encodeRows(events.slice(100, 400).map(renderOutcomeRow)), token: 'earlier-run' });
    await engines.log.append(TOPICS.renders, events.slice(0, 1200));
    await engines.log.append(TOPICS.renders, events.slice(1200));

    const registry = new Registry();
    const first = new ExplorerProjector(engines.log, new CrashAfterInsert(engines.store, 2) as unknown as ExplorerStore, logger, new ReadinessRegistry(), registry);
    first.onApplicationBootstrap();
    await until(async () => (await count()) === 2000 && (await first.lag()) === 0);
    expect(await registry.metrics()).toMatch(/bpc_explorer_projected_rows_total\{table="render_outcomes"\} [1-9]/);
    await first.onApplicationShutdown();

    const second = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry());
    second.onApplicationBootstrap();
    await engines.log.append(TOPICS.renders, [fact(1, 2), fact(1, 2)]);
    await until(async () => (await count(2)) === 1 && (await second.lag()) === 0);
    await second.onApplicationShutdown();
    expect(await count()).toBe(2000);

    await engines.store.command(`TRUNCATE TABLE ${RENDER_OUTCOMES_TABLE}`);
    await engines.store.command('TRUNCATE TABLE explorer_projection_checkpoints');
    const third = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry());
    third.onApplicationBootstrap();
    await until(async () => (await count()) === 2000 && (await count(2)) === 1);
    await third.onApplicationShutdown();
    const [{ n, ms }] = await engines.store.query<{ n: number; ms: number }>(`SELECT count() AS n, sum(render_ms) AS ms FROM ${RENDER_OUTCOMES_TABLE} FINAL WHERE host_id = 1`);
    expect([Number(n), Number(ms)]).toEqual([2000, events.reduce((sum, e) => sum + e.payload.renderMs, 0)]);
    expect(events.every((e) => e.type === RENDER_RECORDED)).toBe(true);
  }, 60_000);
});
