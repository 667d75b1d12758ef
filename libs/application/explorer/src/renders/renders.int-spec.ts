import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError } from '@bpc/domain';
import { ExplorerAdmission, ExplorerStore, RECACHE_RECEIPTS_TABLE } from '@bpc/explorer-store';
import { closeInProcessExplorerStore, IN_PROCESS_EXPLORER_STORES, insertRenderOutcomes, renderOutcome, TestClock, testConfig } from '@bpc/testing';
import { AccountLimits } from '../account-limits';
import { findExplorer, RENDERS_KEY } from '../catalog/explorer-catalog';
import { discoveryDocument } from '../discover-explorers/discovery';
import { DiscoverRendersHandler } from './discover-renders.handler';
import { GetRendersTimeseriesHandler } from './get-renders-timeseries.handler';
import { QueryRendersHandler } from './query-renders.handler';
import { DiscoverRenders, GetRendersTimeseries, QueryRenders } from './renders.query';
import type { QueryBody } from '../resolve-query/query-body';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 27, 12, 30);


/** Render history over real engines: rows inserted as the projector would, queried through the handlers with the admission queue. */
describe.each(IN_PROCESS_EXPLORER_STORES)('render history queries (%s)', (_name, open) => {
  const config = testConfig('standalone', {
    websites: [
      { id: 'demo', host_id: 1, account_id: 'acme' },
      { id: 'shop', host_id: 2, account_id: 'other' },
    ],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-renders-'));
  const clock = new TestClock(NOW);
  let store: ExplorerStore;
  let query: (body: QueryBody, website?: string) => ReturnType<QueryRendersHandler['execute']>;
  let timeseries: (body: Record<string, unknown>, website?: string) => ReturnType<GetRendersTimeseriesHandler['execute']>;

  beforeAll(async () => {
    store = open(dir);
    await store.migrate();
    const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR);
    const rows = [
      renderOutcome(at(1), { url: 'https://www.example.com/a', render_ms: 800, entry_id: 'entry-a', event_id: 'e1' }),
      renderOutcome(at(2), { url: 'https://www.example.com/a', outcome: 'kept_blank', reason: 'blank page', render_ms: 1200, status_code: 200, bytes: 120, event_id: 'e2' }),
      renderOutcome(at(3), { url: 'https://www.example.com/b', outcome: 'kept_blank', reason: 'blank page', render_ms: 1400, dimension_id: 2, event_id: 'e3' }),
      renderOutcome(at(4), { url: 'https://www.example.com/c', outcome: 'retry_scheduled', reason: 'render timed out', render_ms: 30_000, status_code: 0, bytes: 0, trigger: 'sitemap', entry_id: 'request-c', event_id: 'e4' }),
      renderOutcome(at(5), { url: 'https://www.example.com/c', outcome: 'gave_up', reason: 'render timed out', render_ms: 30_000, status_code: 0, bytes: 0, attempt: 3, entry_id: 'request-c', event_id: 'e5' }),
      renderOutcome(at(30), { url: 'https://www.example.com/old', mode: 'bypass', trigger: 'edge_miss', render_ms: 50, event_id: 'e6' }),
      // Another website's host: never visible to demo.
      renderOutcome(at(1), { host_id: 2, url: 'https://shop.example.org/secret', outcome: 'failed', reason: 'origin answered 502', event_id: 's1' }),
    ];
    await insertRenderOutcomes(store, rows);
    // A receipted sitemap recache queued /c and /d (one request: one row per entry, the request's id on each); another host's request names a demo render's entry id.
    const receiptRow = (url: string, over: Record<string, unknown> = {}) => ({ receipt_id: 'receipt-1', host_id: 1, url, dimension_id: 1, source: 'sitemap', priority: 'normal', requested_at: at(6), event_id: 'request-c', ...over });
    await store.insert({ table: RECACHE_RECEIPTS_TABLE, token: 'receipts', rows: [receiptRow('https://www.example.com/c'), receiptRow('https://www.example.com/d'), receiptRow('https://shop.example.org/x', { host_id: 2, receipt_id: 'receipt-shop', event_id: 'entry-a' })] });
    // Delivered twice by the projector (another batch): FINAL reads it once.
    await insertRenderOutcomes(store, [rows[0]]);
    const admission = new ExplorerAdmission({ maxRunning: 4, perAccount: 16 }, clock);
    const queries = new QueryRendersHandler(store, admission, clock, new AccountLimits(config), config);
    const series = new GetRendersTimeseriesHandler(store, admission, clock, config);
    query = (body, website = 'demo') => queries.execute(new QueryRenders(website, website === 'demo' ? 'acme' : 'other', body, clock.now()));
    timeseries = (body, website = 'demo') => series.execute(new GetRendersTimeseries(website, website === 'demo' ? 'acme' : 'other', body, clock.now()));
  }, 60_000);

  afterAll(() => closeInProcessExplorerStore(store, dir, config.data_dir));

  const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: AppError) => ({ code: error.code, field: error.field }));

  it('answers one row per render, newest first, with the default columns over 7 days (a duplicate delivery counted once)', async () => {
    const { data, meta } = await query({});
    expect(meta).toMatchObject({ explorerKey: 'renders', mode: 'renders', total: 6, page: 1, perPage: 100, sort: 'rendered_at', sortDir: 'desc', period: '7d', columns: ['page', 'rendered_at', 'outcome', 'reason', 'render_ms'] });
    expect(data[0]).toEqual({ page: 'https://www.example.com/a', rendered_at: new Date(NOW - HOUR).toISOString(), outcome: 'stored', reason: '', render_ms: 800, _rowId: 'e1' });
    expect(data.map((r) => r._rowId)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
  });

  it('shows every column, the dimension by its name, and pages', async () => {
    const columns = ['page', 'rendered_at', 'dimension', 'mode', 'trigger', 'outcome', 'reason', 'status_code', 'render_ms', 'bytes', 'attempt'];
    const { data, meta } = await query({ columns, sort: 'render_ms', sortDir: 'asc', perPage: 2, page: 2 });
    expect(meta).toMatchObject({ total: 6, totalPages: 3, page: 2 });
    expect(data).toEqual([
      { page: 'https://www.example.com/a', rendered_at: new Date(NOW - 2 * HOUR).toISOString(), dimension: 'desktop', mode: 'render', trigger: 'recache_normal', outcome: 'kept_blank', reason: 'blank page', status_code: 200, render_ms: 1200, bytes: 120, attempt: 1, _rowId: 'e2' },
      { page: 'https://www.example.com/b', rendered_at: new Date(NOW - 3 * HOUR).toISOString(), dimension: 'mobile', mode: 'render', trigger: 'recache_normal', outcome: 'kept_blank', reason: 'blank page', status_code: 200, render_ms: 1400, bytes: 20_000, attempt: 1, _rowId: 'e3' },
    ]);
  });

  it("names the receipt of a render of a receipted request's entry (by its entry id), none for others; the column is not sortable", async () => {
    const { data } = await query({ columns: ['page', 'outcome', 'receipt'] });
    expect(data.map((r) => [r._rowId, r.receipt])).toEqual([['e1', ''], ['e2', ''], ['e3', ''], ['e4', 'receipt-1'], ['e5', 'receipt-1'], ['e6', '']]);
    expect(await refusal(query({ columns: ['page', 'receipt'], sort: 'receipt' }))).toEqual({ code: 'VALIDATION_FAILED', field: 'sort' });
  });

  it('filters by outcome class, outcome, trigger, mode, dimension, reason, status and render time', async () => {
    const ids = async (filters: QueryBody['filters']) => (await query({ filters, period: '7d' })).data.map((r) => r._rowId);
    expect(await ids([{ field: 'outcome_class', val: 'failed' }])).toEqual(['e4', 'e5']);
    expect(await ids([{ field: 'outcome_class', val: 'kept' }])).toEqual(['e2', 'e3']);
    expect(await ids([{ field: 'outcome_class', op: 'ne', val: 'stored' }])).toEqual(['e2', 'e3', 'e4', 'e5']);
    expect(await ids([{ field: 'outcome', val: 'gave_up' }])).toEqual(['e5']);
    expect(await ids([{ field: 'trigger', val: 'sitemap' }])).toEqual(['e4']);
    expect(await ids([{ field: 'mode', val: 'bypass' }])).toEqual(['e6']);
    expect(await ids([{ field: 'dimension', val: 'mobile' }])).toEqual(['e3']);
    expect(await ids([{ field: 'reason', op: 'contains', val: 'TIMED' }])).toEqual(['e4', 'e5']);
    expect(await ids([{ field: 'url', op: 'regex', val: '/(a|b)$' }])).toEqual(['e1', 'e2', 'e3']);
    expect(await ids([{ field: 'status_code', op: 'eq', val: 0 }])).toEqual(['e4', 'e5']);
    expect(await ids([{ field: 'render_ms', op: 'between', val: 1000, val2: 2000 }])).toEqual(['e2', 'e3']);
    expect(await ids([{ field: 'reason', op: 'empty' }])).toEqual(['e1', 'e6']);
  });

  it('groups by outcome and reason (mode reasons), most renders first', async () => {
    const { data, meta } = await query({ mode: 'reasons', period: '24h' });
    expect(meta).toMatchObject({ mode: 'reasons', total: 4, sort: 'renders', sortDir: 'desc', columns: ['outcome', 'reason', 'renders', 'pages', 'avg_render_ms', 'last_rendered_at'] });
    // Ties in renders keep a stable order: by outcome, then reason.
    expect(data.map(({ _rowId, ...row }) => row)).toEqual([
      { outcome: 'kept_blank', reason: 'blank page', renders: 2, pages: 2, avg_render_ms: 1300, last_rendered_at: new Date(NOW - 2 * HOUR).toISOString() },
      { outcome: 'gave_up', reason: 'render timed out', renders: 1, pages: 1, avg_render_ms: 30_000, last_rendered_at: new Date(NOW - 5 * HOUR).toISOString() },
      { outcome: 'retry_scheduled', reason: 'render timed out', renders: 1, pages: 1, avg_render_ms: 30_000, last_rendered_at: new Date(NOW - 4 * HOUR).toISOString() },
      { outcome: 'stored', reason: '', renders: 1, pages: 1, avg_render_ms: 800, last_rendered_at: new Date(NOW - HOUR).toISOString() },
    ]);
    const slowest = await query({ mode: 'reasons', period: '24h', sort: 'avg_render_ms', filters: [{ field: 'outcome_class', val: 'failed' }], columns: ['outcome', 'avg_render_ms'] });
    expect(slowest.data.map(({ _rowId, ...row }) => row)).toEqual([{ outcome: 'gave_up', avg_render_ms: 30_000 }, { outcome: 'retry_scheduled', avg_render_ms: 30_000 }]);
  });

  it('refuses a page far past the last (an offset the engine cannot take) as a 400 naming page, not a 503', async () => {
    for (const page of [1e14, 2 ** 53 - 1]) expect(await refusal(query({ page }))).toEqual({ code: 'VALIDATION_FAILED', field: 'page' });
  });

  it("never shows another website's host rows", async () => {
    const demo = await query({ period: '90d', filters: [{ field: 'url', op: 'contains', val: 'secret' }] });
    expect(demo.meta.total).toBe(0);
    const shop = await query({ period: '24h' }, 'shop');
    expect(shop.data.map((r) => r.page)).toEqual(['https://shop.example.org/secret']);
    const series = await timeseries({ period: '24h' }, 'shop');
    expect(series.points.reduce((n, p) => n + p.renders, 0)).toBe(1);
  });

  it('answers a timeseries: every hour of 24h, renders by outcome class, render-time percentiles (null when empty)', async () => {
    const { meta, points } = await timeseries({ period: '24h' });
    expect(meta).toEqual({ period: '24h', interval: 'hour', window: { start: new Date(NOW - 24 * HOUR).toISOString(), end: new Date(NOW).toISOString() } });
    expect(points).toHaveLength(25);
    const sum = (key: 'renders' | 'stored' | 'kept' | 'failed') => points.reduce((n, p) => n + p[key], 0);
    expect({ renders: sum('renders'), stored: sum('stored'), kept: sum('kept'), failed: sum('failed') }).toEqual({ renders: 5, stored: 1, kept: 2, failed: 2 });
    const hourOf = (hoursAgo: number) => new Date(Math.floor((NOW - hoursAgo * HOUR) / HOUR) * HOUR).toISOString();
    expect(points.find((p) => p.t === hourOf(4))).toEqual({ t: hourOf(4), renders: 1, stored: 0, kept: 0, failed: 1, renderMsP50: 30_000, renderMsP95: 30_000 });
    expect(points[0]).toMatchObject({ renders: 0, renderMsP50: null, renderMsP95: null });
    const daily = await timeseries({ period: '7d', filters: [{ field: 'outcome_class', val: 'failed' }], interval: 'day' });
    expect(daily.meta.interval).toBe('day');
    expect(daily.points.reduce((n, p) => n + p.failed + p.stored, 0)).toBe(2);
  });

  it('refuses bad input with VALIDATION_FAILED naming the field', async () => {
    const cases: [QueryBody, string][] = [
      [{ mode: 'requests' }, 'mode'],
      [{ columns: ['bot_name'] }, 'columns[0]'],
      [{ mode: 'reasons', columns: ['render_ms'] }, 'columns[0]'],
      [{ filters: [{ field: 'outcome', val: 'exploded' }] }, 'filters[0].val'],
      [{ filters: [{ field: 'outcome_class', val: 'maybe' }] }, 'filters[0].val'],
      [{ filters: [{ field: 'dimension', val: 'tablet' }] }, 'filters[0].val'],
      [{ filters: [{ field: 'url', op: 'regex', val: '(a' }] }, 'filters[0].val'],
      [{ filters: [{ field: 'bot_name', val: 'x' }] }, 'filters[0].field'],
      [{ filters: [{ field: 'render_ms', op: 'gt', val: 'slow' }] }, 'filters[0].val'],
      [{ period: '1y' }, 'period'],
      [{ period: '2025-01-01,2026-06-01' }, 'period'],
      [{ sort: 'bytes', mode: 'reasons' }, 'sort'],
      [{ compPeriod: '7d' }, 'compPeriod'],
      [{ perPage: 501 }, 'perPage'],
      [{ page: 9 }, 'page'],
    ];
    for (const [body, field] of cases) expect({ body, refused: await refusal(query(body)) }).toEqual({ body, refused: { code: 'VALIDATION_FAILED', field } });
    expect(await refusal(timeseries({ interval: 'minute' }))).toEqual({ code: 'VALIDATION_FAILED', field: 'interval' });
    expect(await refusal(timeseries({ period: '90d', interval: 'hour' }))).toEqual({ code: 'VALIDATION_FAILED', field: 'interval' });
    expect(await refusal(timeseries({ filters: [{ field: 'trigger', val: 'cron' }] }))).toEqual({ code: 'VALIDATION_FAILED', field: 'filters[0].val' });
  });

  it('discovers the renders catalog with the host dimensions, and stays out of the Data Explorer', async () => {
    const entry = await new DiscoverRendersHandler(new AccountLimits(config), config).execute(new DiscoverRenders('demo', 'acme'));
    expect(entry.key).toBe('renders');
    expect(entry.modes.map((m) => m.key)).toEqual(['renders', 'reasons']);
    expect(entry.modes[0].filters.find((f) => f.field === 'dimension')!.options).toEqual([{ value: 'desktop', label: 'desktop' }, { value: 'mobile', label: 'mobile' }]);
    expect(entry.limits).toEqual({ perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 });
    expect(entry.periods).toEqual({ presets: ['24h', '7d', '14d', '28d', '30d', '90d'], customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: true, maxRangeDays: 365 });
    expect(discoveryDocument(entry.limits).explorers.map((e) => e.key)).toEqual(['events', 'search-pages', 'search-keywords', 'pages', 'page_changes']);
    expect(findExplorer(RENDERS_KEY)).toBeUndefined();
  });
});
