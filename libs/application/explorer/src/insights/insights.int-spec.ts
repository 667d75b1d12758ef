import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BOT_REQUEST_EVENTS_TABLE, ChdbExecutor, EXPLORER_DDL_DIR, ExplorerAdmission } from '@bpc/explorer-store';
import { TestClock, testConfig } from '@bpc/testing';
import { AccountLimits } from '../account-limits';
import { demoTraffic } from '../generate-demo-data/demo-traffic';
import type { QueryBody } from '../resolve-query/query-body';
import { RunExplorerQueryHandler } from '../run-explorer-query/run-explorer-query.handler';
import { RunExplorerQuery } from '../run-explorer-query/run-explorer-query.query';
import { GetInsightsBotCategoriesHandler } from './get-insights-bot-categories.handler';
import { GetInsightsSummaryHandler } from './get-insights-summary.handler';
import { GetInsightsTimeseriesHandler } from './get-insights-timeseries.handler';
import { GetInsightsBotCategories, GetInsightsSummary, GetInsightsTimeseries, InsightsSummaryResult } from './insights.query';
import type { InsightsBotCategoriesBody, InsightsSummaryBody, InsightsTimeseriesBody } from './resolve-insights';

/** A fixed instant mid-day, on a whole minute: rolling windows then have partial first and last day buckets. */
const NOW = Date.UTC(2026, 10, 20, 15, 30);
const WEBSITE = 'demo';

/** `YYYY-MM-DDTHH:mm`, the explorer's exact-instant period bound. */
const minute = (iso: string) => iso.slice(0, 16);

describe('insights against the Data Explorer on demo traffic (chDB)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-insights-'));
  const config = testConfig('standalone', { websites: [{ id: WEBSITE, host_id: 1, account_id: 'acme' }] });
  const clock = new TestClock(NOW);
  let store: ChdbExecutor;
  let explorer: RunExplorerQueryHandler;
  let summaryHandler: GetInsightsSummaryHandler;
  let timeseriesHandler: GetInsightsTimeseriesHandler;
  let botCategoriesHandler: GetInsightsBotCategoriesHandler;

  beforeAll(async () => {
    store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
    let day = 0;
    for (const { botRequests: events } of demoTraffic({ websiteId: WEBSITE, hostId: 1, hostname: 'www.example.com', nowMs: NOW, days: 100, requestsPerDay: 600, seed: 30 })) {
      await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: events.map((e) => ({ ...e })), token: `day-${day}` });
      // A batch the projector wrote again with other boundaries (another token): FINAL counts its rows once, as the explorer does.
      if (day % 10 === 0) await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: events.slice(0, 50).map((e) => ({ ...e })), token: `day-${day}-again` });
      day += 1;
    }
    const admission = new ExplorerAdmission({ maxRunning: 3, perAccount: 16 }, clock);
    explorer = new RunExplorerQueryHandler(store, admission, clock, new AccountLimits(config), config);
    summaryHandler = new GetInsightsSummaryHandler(store, admission, clock, config);
    timeseriesHandler = new GetInsightsTimeseriesHandler(store, admission, clock, config);
    botCategoriesHandler = new GetInsightsBotCategoriesHandler(store, admission, clock, config);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(config.data_dir, { recursive: true, force: true });
  });

  const total = async (body: QueryBody) => (await explorer.execute(new RunExplorerQuery(WEBSITE, 'acme', 'events', { perPage: 1, ...body }, clock.now()))).meta.total;
  const summary = (body: InsightsSummaryBody) => summaryHandler.execute(new GetInsightsSummary(WEBSITE, 'acme', body, clock.now()));
  const timeseries = (body: InsightsTimeseriesBody) => timeseriesHandler.execute(new GetInsightsTimeseries(WEBSITE, 'acme', body, clock.now()));
  const botCategories = (body: InsightsBotCategoriesBody) => botCategoriesHandler.execute(new GetInsightsBotCategories(WEBSITE, 'acme', body, clock.now()));

  /** The explorer's figures for the summary's windows, as its three modes give them. */
  async function explorerFigures({ meta }: InsightsSummaryResult, filters: QueryBody['filters'], compPeriod?: string) {
    const period = meta.period;
    const previous = `${minute(meta.compWindow.start)},${minute(meta.compWindow.end)}`;
    const comparison = { mode: 'comparison', period, filters, ...(compPeriod === undefined ? {} : { compPeriod }) };
    return {
      requests: await total({ mode: 'requests', period, filters }),
      pages: await total({ mode: 'unique_pages', period, filters }),
      previousRequests: await total({ mode: 'requests', period: previous, filters }),
      previousPages: await total({ mode: 'unique_pages', period: previous, filters }),
      newPages: await total({ ...comparison, compCategory: 'new' }),
      lostPages: await total({ ...comparison, compCategory: 'lost' }),
      rendersFailed: await total({ mode: 'requests', period, filters: [...(filters ?? []), { field: 'cache_status', op: 'eq', val: 'miss' }, { field: 'status_code', op: 'between', val: 503, val2: 504 }] }),
    };
  }

  const figuresOf = ({ data }: InsightsSummaryResult) => ({
    requests: data.current.requests,
    pages: data.current.pages,
    previousRequests: data.previous.requests,
    previousPages: data.previous.pages,
    newPages: data.newPages,
    lostPages: data.lostPages,
    rendersFailed: data.current.rendersFailed,
  });

  it.each<[string, InsightsSummaryBody]>([
    ['30d against the 30 days before (the defaults)', {}],
    ['7d with filters', { period: '7d', filters: [{ field: 'bot_name', op: 'equals', val: 'Googlebot' }, { field: 'url', op: 'contains', val: '/blog/' }] }],
  ])('the summary of %s equals the explorer: requests, unique_pages and comparison new/lost totals', async (_name, body) => {
    const answer = await summary(body);
    expect(answer.data.current.requests).toBeGreaterThan(0);
    expect(answer.data.newPages + answer.data.lostPages).toBeGreaterThan(0);
    expect(figuresOf(answer)).toEqual(await explorerFigures(answer, body.filters));
  });

  it('takes a custom comparison period (whole days) as the explorer does', async () => {
    const body = { period: '2026-11-01,2026-11-14', compPeriod: '2026-09-01,2026-09-14' };
    const answer = await summary(body);
    expect(answer.meta).toEqual({
      period: '2026-11-01,2026-11-14',
      window: { start: '2026-11-01T00:00:00.000Z', end: '2026-11-15T00:00:00.000Z' },
      compPeriod: '2026-09-01,2026-09-14',
      compWindow: { start: '2026-09-01T00:00:00.000Z', end: '2026-09-15T00:00:00.000Z' },
    });
    expect(figuresOf(answer)).toEqual(await explorerFigures(answer, undefined, body.compPeriod));
  });

  it('reports ratios and serve times in range, and null for a window without requests', async () => {
    const { data } = await summary({ period: '30d', filters: [{ field: 'url', op: 'equals', val: 'https://www.example.com/never-requested' }] });
    expect(data.current).toEqual({ requests: 0, pages: 0, hitRate: null, serveTimeP50Ms: null, serveTimeP95Ms: null, share4xx: null, share5xx: null, rendersFailed: 0 });
    const { data: busy } = await summary({});
    for (const share of [busy.current.hitRate, busy.current.share4xx, busy.current.share5xx]) expect(share).toBeGreaterThanOrEqual(0);
    expect(busy.current.hitRate).toBeLessThanOrEqual(1);
    expect(busy.current.serveTimeP95Ms).toBeGreaterThanOrEqual(busy.current.serveTimeP50Ms!);
    expect(busy.current.rendersFailed).toBeGreaterThan(0);
    const hits = await total({ mode: 'requests', period: '30d', filters: [{ field: 'cache_status', op: 'eq', val: 'hit' }] });
    expect(busy.current.hitRate).toBeCloseTo(hits / busy.current.requests, 4);
  });

  it('charts requests by bot family, by the hour for 7 days: every bucket present, the series summing to the summary', async () => {
    const { data, meta } = await timeseries({ metric: 'requests', period: '7d', splitBy: 'bot_family' });
    expect(meta).toMatchObject({ metric: 'requests', interval: 'hour', splitBy: 'bot_family', period: '7d' });
    expect(data.comparison).toBeUndefined();
    // 7 × 24 hours, plus one: the rolling window starts and ends mid-hour.
    for (const series of data.series) expect(series.points).toHaveLength(7 * 24 + 1);
    expect(data.series[0].points[0].t).toBe('2026-11-13T15:00:00.000Z');
    expect(data.series.map((s) => s.key)).toContain('Googlebot');
    const charted = data.series.flatMap((s) => s.points).reduce((sum, p) => sum + (p.v ?? 0), 0);
    expect(charted).toBe((await summary({ period: '7d' })).data.current.requests);
  });

  it('charts by the day above 7 days, with the comparison window when compPeriod is sent; gaps are 0 for counts and null for ratios', async () => {
    const { data, meta } = await timeseries({ metric: 'requests', period: '30d', compPeriod: '2026-09-01,2026-09-30', splitBy: 'cache_status' });
    expect(meta).toMatchObject({ interval: 'day', compPeriod: '2026-09-01,2026-09-30', compWindow: { start: '2026-09-01T00:00:00.000Z', end: '2026-10-01T00:00:00.000Z' } });
    expect(new Set(data.series.map((s) => s.key))).toEqual(new Set(['hit', 'stale', 'miss', 'bypass']));
    expect(data.series[0].points).toHaveLength(31);
    expect(data.comparison!.map((s) => s.key)).toEqual(data.series.map((s) => s.key));
    expect(data.comparison![0].points.map((p) => p.t)).toEqual(Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 8, 1 + i)).toISOString()));
    const compRequests = data.comparison!.flatMap((s) => s.points).reduce((sum, p) => sum + (p.v ?? 0), 0);
    expect(compRequests).toBe(await total({ mode: 'requests', period: '2026-09-01,2026-09-30' }));

    // Before the demo data begins (100 days back): empty buckets.
    const empty = await timeseries({ metric: 'hit_rate', period: '2026-01-01,2026-01-03', interval: 'day' });
    expect(empty.data.series).toEqual([{ key: 'all', points: [0, 1, 2].map((d) => ({ t: new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString(), v: null })) }]);
    const hourly = await timeseries({ metric: 'serve_time_p50', period: '2026-01-01,2026-01-03' });
    expect({ interval: hourly.meta.interval, points: hourly.data.series[0].points.length, values: new Set(hourly.data.series[0].points.map((p) => p.v)) }).toEqual({ interval: 'hour', points: 72, values: new Set([null]) });
    const counts = await timeseries({ metric: 'pages', period: '2026-01-01,2026-01-03', interval: 'day' });
    expect(counts.data.series[0].points.map((p) => p.v)).toEqual([0, 0, 0]);
  });

  it('charts pages, hit rate and serve times per bucket, and status classes as NNxx', async () => {
    const { data } = await timeseries({ metric: 'serve_time_p95', period: '14d', splitBy: 'status_class' });
    expect(data.series.map((s) => s.key).sort()).toEqual(['2xx', '3xx', '4xx', '5xx']);
    const pages = await timeseries({ metric: 'pages', period: '2026-11-10,2026-11-10', interval: 'day' });
    expect(pages.data.series[0].points).toEqual([{ t: '2026-11-10T00:00:00.000Z', v: await total({ mode: 'unique_pages', period: '2026-11-10,2026-11-10' }) }]);
  });

  it('charts search performance per day from each day\'s latest import, as the search-pages explorer sums it', async () => {
    const row = (date: string, url: string, clicks: number, impressions: number, position: number, importedAt: string) => ({ website: WEBSITE, date, url, clicks, impressions, position, imported_at: importedAt });
    await store.insert({
      table: 'search_page_daily',
      rows: [
        row('2026-11-10', 'https://www.example.com/', 10, 100, 2, '2026-11-11T00:00:00.000Z'),
        row('2026-11-10', 'https://www.example.com/docs', 5, 50, 8, '2026-11-11T00:00:00.000Z'),
        // An earlier import of the same day, replaced by the later one: not counted.
        row('2026-11-10', 'https://www.example.com/old', 99, 990, 1, '2026-11-10T12:00:00.000Z'),
        row('2026-11-12', 'https://www.example.com/', 3, 60, 4, '2026-11-13T00:00:00.000Z'),
      ],
      token: 'search-pages',
    });
    await store.insert({
      table: 'search_day_imports',
      rows: [
        { website: WEBSITE, grain: 'page', date: '2026-11-10', imported_at: '2026-11-10T12:00:00.000Z' },
        { website: WEBSITE, grain: 'page', date: '2026-11-10', imported_at: '2026-11-11T00:00:00.000Z' },
        { website: WEBSITE, grain: 'page', date: '2026-11-12', imported_at: '2026-11-13T00:00:00.000Z' },
      ],
      token: 'search-imports',
    });
    const period = '2026-11-10,2026-11-12';
    const values = async (metric: string, extra: InsightsTimeseriesBody = {}) => (await timeseries({ metric, period, ...extra })).data.series[0].points.map((p) => p.v);
    expect(await values('clicks')).toEqual([15, 0, 3]);
    expect(await values('impressions')).toEqual([150, 0, 60]);
    expect(await values('ctr')).toEqual([0.1, null, 0.05]);
    expect(await values('position')).toEqual([4, null, 4]);
    expect(await values('clicks', { filters: [{ field: 'url', op: 'contains', val: 'docs' }] })).toEqual([5, 0, 0]);
    const pages = await explorer.execute(new RunExplorerQuery(WEBSITE, 'acme', 'search-pages', { period: '2026-11-10,2026-11-10' }, clock.now()));
    expect(pages.data.reduce((sum, r) => sum + Number(r.clicks), 0)).toBe(15);
    const compared = await timeseries({ metric: 'clicks', period: '2026-11-12,2026-11-12', compPeriod: '2026-11-10,2026-11-10' });
    expect(compared.data.comparison).toEqual([{ key: 'all', points: [{ t: '2026-11-10T00:00:00.000Z', v: 15 }] }]);
  });

  it.each<[string, InsightsBotCategoriesBody]>([
    ['30d (the default)', {}],
    ['7d of verified bots on the docs', { period: '7d', filters: [{ field: 'verified', op: 'eq', val: 'yes' }, { field: 'url', op: 'contains', val: '/docs/' }] }],
  ])('splits the bot requests of %s by category as the explorer counts them: shares, AI agents together, top pages per AI category', async (_name, body) => {
    const { data, meta } = await botCategories(body);
    const period = meta.period;
    const filters = body.filters ?? [];
    const count = (mode: string, extra: QueryBody['filters'] = []) => total({ mode, period, filters: [...filters, ...(extra ?? [])] });
    expect(data.requests).toBe(await count('requests'));
    expect(data.categories.map((c) => c.requests)).toEqual([...data.categories.map((c) => c.requests)].sort((a, b) => b - a));
    expect(data.categories.reduce((sum, c) => sum + c.requests, 0)).toBe(data.requests);
    for (const c of data.categories) {
      const only = [{ field: 'bot_category', op: 'eq', val: c.category }];
      expect([c.category, c.requests, c.pages]).toEqual([c.category, await count('requests', only), await count('unique_pages', only)]);
      expect(c.share).toBeCloseTo(c.requests / data.requests, 4);
    }
    expect(data.categories.map((c) => c.category)).toEqual(expect.arrayContaining(['search', 'ai_assistant', 'ai_training']));
    const notAi = ['search', 'social', 'seo_tool', 'monitoring', 'other'].map((val) => ({ field: 'bot_category', op: 'ne', val }));
    expect(data.aiAgents).toEqual({ requests: await count('requests', notAi), share: expect.closeTo(data.aiAgents.requests / data.requests, 4), pages: await count('unique_pages', notAi) });

    const categories = [...new Set(data.topAiPages.map((p) => p.category))];
    expect(categories).toEqual(['ai_search', 'ai_assistant', 'ai_training'].filter((c) => categories.includes(c)));
    for (const category of categories) {
      const listed = data.topAiPages.filter((p) => p.category === category);
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.length).toBeLessThanOrEqual(5);
      // The explorer's most requested pages for that category, in the same order.
      const top = await explorer.execute(new RunExplorerQuery(WEBSITE, 'acme', 'events', { mode: 'unique_pages', period, columns: ['page', 'requests'], sort: 'requests', sortDir: 'desc', perPage: 50, filters: [...filters, { field: 'bot_category', op: 'eq', val: category }] }, clock.now()));
      expect(listed.map((p) => p.requests)).toEqual(top.data.slice(0, listed.length).map((r) => r.requests));
      expect(listed.map((p) => p.requests)[0]).toBe(top.data[0].requests);
    }
  });

  it('splits a window without requests into nothing, and charts requests by category and by verification', async () => {
    const none = await botCategories({ filters: [{ field: 'url', op: 'equals', val: 'https://www.example.com/never-requested' }] });
    expect(none.data).toEqual({ requests: 0, categories: [], aiAgents: { requests: 0, share: null, pages: 0 }, topAiPages: [] });
    const byCategory = await timeseries({ metric: 'requests', period: '7d', splitBy: 'bot_category' });
    expect(byCategory.data.series.map((s) => s.key)).toEqual(expect.arrayContaining(['search', 'ai_assistant', 'ai_training', 'ai_search']));
    const byVerification = await timeseries({ metric: 'requests', period: '7d', splitBy: 'verified', interval: 'day' });
    expect(new Set(byVerification.data.series.map((s) => s.key))).toEqual(new Set(['yes', 'no', 'unknown']));
  });

  it('refuses for the bot categories what the explorer refuses, naming the same field', async () => {
    await expect(botCategories({ period: '2d' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'period' });
    await expect(botCategories({ filters: [{ field: 'bot_category', op: 'eq', val: 'robots' }] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'filters[0].val' });
    await expect(botCategories({ filters: [{ field: 'verified', op: 'contains', val: 'y' }] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'filters[0].op' });
  });

  it('refuses what the explorer refuses, naming the same field', async () => {
    await expect(summary({ period: '2d' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'period' });
    await expect(summary({ compPeriod: '24h' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'compPeriod' });
    await expect(summary({ filters: [{ field: 'url', op: 'gt', val: 'x' }] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'filters[0].op' });
    await expect(summary({ filters: [{ field: 'url', op: 'regex', val: '(a' }] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'filters[0].val' });
    await expect(timeseries({ metric: 'clicks', period: '24h' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'period', message: expect.stringMatching(/whole-day/) });
  });
});
