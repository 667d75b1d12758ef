import pino from 'pino';
import { Registry } from 'prom-client';
import { newRenderRecorded, RENDER_OUTCOMES, RENDER_RECORDED, RenderRecorded, RenderRecordedPayload, TOPICS } from '@bpc/events';
import { ExplorerStore, JsonLines, RENDER_OUTCOMES_TABLE, RENDER_RECORDED_EVENTS_TABLE, type RenderOutcomeRow } from '@bpc/explorer-store';
import { ReadinessRegistry } from '@bpc/platform';
import { until } from '@bpc/testing';
import { intakeOfStored } from './explorer-projection';
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
/** The `render_outcomes` row of a fact, as the spec of the view's mapping (an edge miss has no entry id). */
const expectedRow = ({ id, occurredAt, payload: p }: RenderRecorded): RenderOutcomeRow => ({
  host_id: p.hostId, url: p.url, dimension_id: p.dimensionId, mode: p.mode, trigger: p.trigger, outcome: p.outcome, reason: p.reason, status_code: p.statusCode,
  render_ms: p.renderMs, bytes: p.bytes, attempt: p.attempt, entry_id: p.entryId ?? '', ts: occurredAt.replace('T', ' ').replace('Z', ''), event_id: id,
});
const fact = (i: number, hostId = 1): RenderRecorded => ({ ...newRenderRecorded(payload(i, hostId), t0 + i * 1000), id: `render-${hostId}-${i}` });

describe('render history: RenderRecorded (bpc.renders.v1) into render_outcomes', () => {
  const engines = explorerProjectorEngines('bpc-render-outcomes-');

  const count = async (hostId = 1) => Number((await engines.store.query<{ n: number }>(`SELECT count() AS n FROM ${RENDER_OUTCOMES_TABLE} FINAL WHERE host_id = {h:UInt32}`, { h: hostId }))[0].n);
  const rowsOf = (prefix: string) =>
    engines.store.query<Record<string, unknown>>(`SELECT * EXCEPT ts, toString(ts) AS ts FROM ${RENDER_OUTCOMES_TABLE} WHERE startsWith(event_id, {prefix:String}) ORDER BY ts, url`, { prefix });

  it('the intake view maps facts to their rows, given as objects or as stored JSON, entry id absent for an edge miss', async () => {
    const events = Array.from({ length: 30 }, (_, i) => fact(i, 7));
    const asObjects = events.map((e) => ({ ...e, id: `rows-${e.id}` }));
    await engines.store.insert({ table: RENDER_RECORDED_EVENTS_TABLE, rows: asObjects, token: 'rows' });
    const stored = events.map((e) => ({ ...e, id: `json-${e.id}` }));
    const payloads = stored.map((e) => Buffer.from(JSON.stringify(e)));
    expect(payloads.map(intakeOfStored)).toEqual(payloads.map(() => RENDER_RECORDED_EVENTS_TABLE));
    await engines.store.insert({ table: RENDER_RECORDED_EVENTS_TABLE, rows: [JsonLines.of(payloads)], token: 'json' });
    expect(await rowsOf('rows-')).toEqual(asObjects.map(expectedRow));
    expect(await rowsOf('json-')).toEqual(stored.map(expectedRow));
  });

  it('tells stored RenderRecorded v1 events from others', () => {
    const event = fact(1);
    expect(intakeOfStored(Buffer.from(JSON.stringify(event)))).toBe(RENDER_RECORDED_EVENTS_TABLE);
    expect(intakeOfStored(Buffer.from(JSON.stringify({ ...event, version: 2 })))).toBeUndefined();
  });

  it('projects every fact once, through a write that landed but was not checkpointed, a restart and a rebuild', async () => {
    const events = Array.from({ length: 2000 }, (_, i) => fact(i));
    // Rows "from an earlier run" in other batch boundaries: ReplacingMergeTree folds them by event id.
    await engines.store.insert({ table: RENDER_OUTCOMES_TABLE, rows: events.slice(100, 400).map(expectedRow), token: 'earlier-run' });
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
