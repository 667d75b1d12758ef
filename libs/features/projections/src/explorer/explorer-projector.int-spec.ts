import pino from 'pino';
import { Registry } from 'prom-client';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, envelope, SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded, SearchPerformanceRow, TOPICS } from '@bpc/events';
import { BOT_REQUEST_EVENTS_TABLE, type ExplorerStore } from '@bpc/explorer-store';
import { buildExplorerSql, DEFAULT_LIMITS, findExplorer, resolveQuery } from '@bpc/explorer';
import type { AppConfig } from '@bpc/config';
import { ReadinessRegistry, ServingLoad } from '@bpc/platform';
import { until } from '@bpc/testing';
import { EXPLORER_FLUSH, ExplorerProjector } from './explorer-projector';
import { CrashAfterInsert, explorerProjectorEngines } from './explorer-projector.fixture';

const logger = pino({ level: 'silent' });
const t0 = Date.parse('2026-11-01T00:00:00Z');

function request(i: number, websiteId = 'demo'): BotRequestRecorded {
  const servedAt = new Date(t0 + i * 1000);
  return envelope(
    BOT_REQUEST_RECORDED,
    1,
    {
      websiteId, host: 'www.example.com', url: `https://www.example.com/p${i % 7}`, pageTitle: 'P', statusCode: 200, botName: 'Googlebot', userAgent: 'UA',
      dimensionId: 1, dimensionName: 'desktop', cacheStatus: 'hit', serveTimeMs: 10, snapshotAgeS: null, bytes: 100, servedAt: servedAt.toISOString(), requestId: `r${i}`,
    },
    { id: `ev-${websiteId}-${i}`, occurredAt: servedAt, key: websiteId },
  );
}

function searchDay(date: string, rows: SearchPerformanceRow[], importedAt: string): SearchPerformanceRecorded {
  return envelope(SEARCH_PERFORMANCE_RECORDED, 1, { websiteId: 'demo', date, grain: 'page', rows, source: 'search-console-csv' }, { id: `s-${date}-${importedAt}`, occurredAt: new Date(importedAt), key: 'demo' });
}

describe('explorer projector (file log → chDB)', () => {
  const engines = explorerProjectorEngines('bpc-explorer-projector-');

  const count = async (website = 'demo') => Number((await engines.store.query<{ n: number }>('SELECT count() AS n FROM bot_requests FINAL WHERE website = {w:String}', { w: website }))[0].n);
  it('projects every event exactly once, even when inserts land and the commit does not, and when batches re-form', async () => {
    const events = Array.from({ length: 3000 }, (_, i) => request(i));
    // A batch "from an earlier run" with other boundaries (so another dedup token) already holds part of the events.
    await engines.store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: events.slice(100, 600).map((e) => ({ ...e })), token: 'earlier-run-with-other-boundaries' });
    await engines.log.append(TOPICS.botRequests, events.slice(0, 1500));
    await engines.log.append(TOPICS.botRequests, events.slice(1500));

    const flaky = new CrashAfterInsert(engines.store, 3) as unknown as ExplorerStore;
    const first = new ExplorerProjector(engines.log, flaky, logger, new ReadinessRegistry());
    first.onApplicationBootstrap();
    await until(async () => (await count()) === 3000 && (await first.lag()) === 0);
    await first.onApplicationShutdown();

    // A restart resumes from the checkpoint and changes nothing.
    const second = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry());
    second.onApplicationBootstrap();
    await engines.log.append(TOPICS.botRequests, [request(5000, 'other')]);
    await until(async () => (await count('other')) === 1);
    await second.onApplicationShutdown();
    expect(await count()).toBe(3000);
    // An emptied store rebuilds from the log: no checkpoint, so the projector starts at the beginning.
    await engines.store.command('TRUNCATE TABLE bot_requests');
    await engines.store.command('TRUNCATE TABLE explorer_projection_checkpoints');
    const third = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry());
    third.onApplicationBootstrap();
    await until(async () => (await count()) === 3000 && (await count('other')) === 1);
    await third.onApplicationShutdown();
    const [{ n, sum }] = await engines.store.query<{ n: number; sum: number }>("SELECT count() AS n, sum(serve_time_ms) AS sum FROM bot_requests FINAL WHERE website = 'demo'");
    expect([Number(n), Number(sum)]).toEqual([3000, 30000]);
  }, 30_000);

  it('lets a re-imported search day replace the earlier import, also dropping keys it no longer lists', async () => {
    const registry = new Registry();
    const projector = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry(), registry);
    projector.onApplicationBootstrap();
    await engines.log.append(TOPICS.searchPerformance, [
      searchDay('2026-11-10', [{ key: 'https://www.example.com/a', clicks: 5, impressions: 50, position: 3 }, { key: 'https://www.example.com/gone', clicks: 1, impressions: 10, position: 9 }], '2026-11-12T00:00:00Z'),
      searchDay('2026-11-11', [{ key: 'https://www.example.com/a', clicks: 1, impressions: 10, position: 1 }], '2026-11-12T00:00:00Z'),
      searchDay('2026-11-10', [{ key: 'https://www.example.com/a', clicks: 7, impressions: 70, position: 2 }], '2026-11-13T00:00:00Z'),
    ]);
    await until(async () => (await projector.lag()) === 0 && Number((await engines.store.query<{ n: number }>('SELECT count() AS n FROM search_day_imports FINAL'))[0].n) === 2);
    const metrics = await registry.metrics();
    expect(metrics).toContain('bpc_explorer_projected_rows_total{table="search_page_daily"} 4');
    expect(metrics).toContain('bpc_explorer_projection_lag_events 0');
    await projector.onApplicationShutdown();
    const query = resolveQuery(findExplorer('search-pages')!, { period: '2026-11-10,2026-11-11' }, Date.parse('2026-11-20T00:00:00Z'), DEFAULT_LIMITS);
    const sql = buildExplorerSql(query, 'demo');
    const rows = await engines.store.query(sql.pageSql, sql.params);
    expect(rows).toEqual([{ _rowId: 'https://www.example.com/a', page: 'https://www.example.com/a', clicks: 8, impressions: 80, ctr: 0.1, position: 1.88 }]);
  }, 30_000);

  it('pauses while the edge in its process is saturated, up to edge.projection_pause_max_ms, and counts the pause', async () => {
    const registry = new Registry();
    let lifted = false;
    const serving = new ServingLoadProbe(() => !lifted);
    const config = { edge: { projection_pause_max_ms: 60_000 } } as AppConfig;
    const projector = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry(), registry, serving.load, config);
    projector.onApplicationBootstrap();
    await engines.log.append(TOPICS.botRequests, Array.from({ length: 50 }, (_, i) => request(i, 'paused')));
    // Asked once before the batch, then again and again while it pauses.
    await until(() => serving.asked.length >= 2);
    const pauseBegan = serving.asked[1];
    // Past the writer's time bound: rows taken from the log would be in the store by then.
    await serving.askedAgainAfter(pauseBegan + EXPLORER_FLUSH.maxDelayMs);
    expect(await count('paused')).toBe(0);
    expect(await projector.lag()).toBeGreaterThanOrEqual(50);
    const liftedAt = Date.now();
    lifted = true;
    await until(async () => (await count('paused')) === 50);
    await projector.flush();
    const paused = (await registry.getSingleMetric('bpc_explorer_projection_paused_seconds_total')!.get()).values[0].value;
    // The pause began before its second question and ended after saturation was lifted.
    expect(paused).toBeGreaterThanOrEqual((liftedAt - pauseBegan) / 1000 - 1e-9);
    await projector.onApplicationShutdown();
  }, 30_000);

  it('holds the rows it gathered before a pause until the pause ends (their insert would take from serving too)', async () => {
    let lifted = false;
    // Not saturated when the batch comes (it is read and gathered), saturated from the question right after it.
    const serving = new ServingLoadProbe((asked) => asked >= 2 && !lifted);
    const config = { edge: { projection_pause_max_ms: 60_000 } } as AppConfig;
    const projector = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry(), new Registry(), serving.load, config);
    projector.onApplicationBootstrap();
    await engines.log.append(TOPICS.botRequests, Array.from({ length: 30 }, (_, i) => request(i, 'gathered')));
    await until(() => serving.asked.length >= 2);
    // Gathered before the second question, so the writer's time bound was armed before it too.
    const gatheredBy = serving.asked[1];
    await engines.log.append(TOPICS.botRequests, Array.from({ length: 30 }, (_, i) => request(i, 'later')));
    await serving.askedAgainAfter(gatheredBy + EXPLORER_FLUSH.maxDelayMs);
    // The time bound has fired by now, and found the writer held.
    expect(await count('gathered')).toBe(0);
    lifted = true;
    await until(async () => (await count('gathered')) === 30 && (await count('later')) === 30);
    await projector.onApplicationShutdown();
  }, 30_000);
});

/**
 * Serving load as the projector sees it: `saturated(n)` answers the n-th
 * question (1-based). Remembers when each was asked: a pause asks before
 * each batch and then every 100 ms until it ends.
 */
class ServingLoadProbe {
  /** Date.now() of each question, in order. */
  readonly asked: number[] = [];
  readonly load: ServingLoad;

  constructor(saturated: (asked: number) => boolean) {
    this.load = { saturated: () => saturated(this.asked.push(Date.now())) } as unknown as ServingLoad;
  }

  /**
   * Resolves once the projection asked again after a question asked at
   * `time` or later: a timer due by `time` (the writer's time bound) has
   * fired by then, as Node runs due timers in the order they fall due and the
   * pause waits on a timer between two questions.
   */
  async askedAgainAfter(time: number): Promise<void> {
    await until(() => {
      const late = this.asked.findIndex((t) => t >= time);
      return late >= 0 && late < this.asked.length - 1;
    });
  }
}
