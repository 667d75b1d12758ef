import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError, changesBetween, ISSUE_CODES, type PageFacts } from '@bpc/domain';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, envelope, newRenderRecorded, RenderRecorded, SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded } from '@bpc/events';
import { ExplorerAdmission, ExplorerStore, RECACHE_RECEIPTS_TABLE, type RecacheReceiptRow } from '@bpc/explorer-store';
import { explorerRows, type TableRows } from '@bpc/projections';
import { botRequestPayload, closeInProcessExplorerStore, IN_PROCESS_EXPLORER_STORES, TestClock, testConfig } from '@bpc/testing';
import { factsWith, healthyFacts } from '../../../../core/domain/src/pages/page-facts.fixtures';
import { AccountLimits } from '../account-limits';
import { DEFAULT_LIMITS } from '../catalog/explorer-catalog';
import { discoveryDocument } from '../discover-explorers/discovery';
import { RunExplorerQueryHandler } from '../run-explorer-query/run-explorer-query.handler';
import { RunExplorerQuery } from '../run-explorer-query/run-explorer-query.query';
import { GetSeoInsights, GetSeoInsightsHandler } from './seo-insights';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 12);
const TODAY = Date.UTC(2026, 10, 28);
const page = (p: string) => `https://www.example.com/${p}`;

/**
 * SEO health's explorers on real tables (chDB), rows written as the explorer
 * projection writes them from RenderRecorded, bot requests and search days:
 * the latest facts with their issue codes (title_duplicate added across the
 * website), the period's traffic and search figures, and the coalesced changes.
 */

describe.each(IN_PROCESS_EXPLORER_STORES)('the pages and page_changes explorers (%s)', (_name, open) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-pages-explorer-'));
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'other' }] });
  const clock = new TestClock(NOW);
  let store: ExplorerStore;
  let handler: RunExplorerQueryHandler;
  let insights: GetSeoInsightsHandler;
  let made = 0;

  function rendered(url: string, at: number, facts: PageFacts, previous?: PageFacts, hostId = 1, dimensionId = 1): RenderRecorded {
    made += 1;
    const changes = previous ? changesBetween(previous, facts) : [];
    const payload = { hostId, url, dimensionId, mode: 'render' as const, trigger: 'recache_normal' as const, outcome: 'stored' as const, reason: '', statusCode: facts.statusCode, renderMs: 900, bytes: facts.bytes, attempt: 1, facts, ...(changes.length ? { changes } : {}) };
    return { ...newRenderRecorded(payload, at), id: `render-${made}` };
  }
  function served(url: string, at: number, botName: string): BotRequestRecorded {
    made += 1;
    const payload = { ...botRequestPayload(made), websiteId: 'demo', url, botName, dimensionId: 1, servedAt: new Date(at).toISOString(), requestId: `req-${made}` };
    return envelope(BOT_REQUEST_RECORDED, 1, payload, { id: `ev-${made}`, occurredAt: new Date(at), key: 'demo' });
  }
  function searchDay(date: string, rows: { key: string; clicks: number }[]): SearchPerformanceRecorded {
    made += 1;
    const payload = { websiteId: 'demo', date, grain: 'page' as const, rows: rows.map((r) => ({ ...r, impressions: 100, position: 3 })), source: 'search-console-csv' as const };
    return envelope(SEARCH_PERFORMANCE_RECORDED, 1, payload, { id: `ev-${made}`, occurredAt: new Date(NOW - DAY), key: 'demo' });
  }

  const shared = factsWith({ title: 'Widgets', titleLength: 7 });
  const noindex = factsWith({ noindexBy: ['googlebot'], canonical: null });

  beforeAll(async () => {
    store = open(path.join(dir, 'chdb'));
    await store.migrate();
    const tables: TableRows = new Map();
    const events = [
      rendered(page('a'), TODAY - 3 * DAY, { ...shared, canonical: page('a') }),
      rendered(page('b'), TODAY - 3 * DAY, { ...shared, canonical: page('b') }),
      // c turned noindex between two renders, and Googlebot keeps asking for it.
      rendered(page('c'), TODAY - 3 * DAY, { ...healthyFacts, canonical: page('c') }),
      rendered(page('c'), TODAY - 2 * DAY, { ...noindex, canonical: page('c') }, { ...healthyFacts, canonical: page('c') }),
      served(page('c'), TODAY - DAY, 'Googlebot'),
      served(page('c'), TODAY - DAY + 1000, 'bingbot'),
      // A 404 with the same title is no duplicate: an error page reports its error only.
      rendered(page('gone'), TODAY - DAY, factsWith({ statusCode: 404, title: 'Widgets', canonical: page('gone') })),
      // A hostile title.
      rendered(page('evil'), TODAY - DAY, factsWith({ title: '=HYPERLINK("http://evil.test","x")', canonical: page('evil') })),
      // Another website's host with the same title: invisible to demo.
      rendered('https://shop.example.org/a', TODAY - DAY, shared, undefined, 2),
      searchDay('2026-11-20', [{ key: page('c'), clicks: 30 }, { key: page('a'), clicks: 5 }]),
    ];
    for (const event of events) explorerRows(event, tables);
    for (const [table, rows] of tables) await store.insert({ table, rows, token: `given-${table}` });
    const admission = new ExplorerAdmission({ maxRunning: 2, perAccount: 8 }, clock);
    handler = new RunExplorerQueryHandler(store, admission, clock, new AccountLimits(config), config);
    insights = new GetSeoInsightsHandler(store, admission, clock, config);
  }, 60_000);

  afterAll(() => closeInProcessExplorerStore(store, dir, config.data_dir));

  const query = (explorerKey: string, body: RunExplorerQuery['body'], websiteId = 'demo', accountId = 'acme') => handler.execute(new RunExplorerQuery(websiteId, accountId, explorerKey, body, clock.now()));
  const refusal = (answer: Promise<unknown>) => answer.then(() => undefined, (error: AppError) => ({ code: error.code, field: error.field }));

  it('discovery lists both explorers, with every issue code as a filter option', () => {
    const entries = discoveryDocument(DEFAULT_LIMITS).explorers;
    const pages = entries.find((e) => e.key === 'pages')!;
    expect(pages.modes[0].filters.find((f) => f.field === 'issue')!.options!.map((o) => o.value)).toEqual(ISSUE_CODES);
    expect(pages.modes[0].columns.map((c) => c.key)).toEqual(expect.arrayContaining(['url', 'dimension', 'title', 'description', 'canonical', 'noindex', 'status_code', 'word_count', 'issues', 'critical_issues', 'last_rendered_at', 'requests', 'last_googlebot_at', 'clicks', 'impressions']));
    expect(entries.find((e) => e.key === 'page_changes')!.modes[0].columns.map((c) => c.key)).toEqual(['url', 'dimension', 'changed_at', 'field', 'before', 'after', 'severity', 'renders']);
  });

  it('lists the latest facts per URL × dimension with their issue codes, title_duplicate across the website, and the period\'s traffic and search figures', async () => {
    const columns = ['url', 'dimension', 'title', 'noindex', 'status_code', 'issues', 'critical_issues', 'last_rendered_at', 'requests', 'last_googlebot_at', 'clicks', 'impressions'];
    const { data, meta } = await query('pages', { columns, sort: 'url', sortDir: 'asc' });
    expect(meta).toMatchObject({ explorerKey: 'pages', mode: 'pages', total: 5, period: '28d' });
    expect(data.map((r) => [r.url, r.issues, r.critical_issues, r.requests, r.clicks])).toEqual([
      [page('a'), 'title_duplicate', 0, 0, 5],
      [page('b'), 'title_duplicate', 0, 0, 0],
      [page('c'), 'noindex', 1, 2, 30],
      [page('evil'), '', 0, 0, 0],
      [page('gone'), 'status_4xx', 1, 0, 0],
    ]);
    expect(data[2]).toMatchObject({ dimension: 'desktop', noindex: 'googlebot', status_code: 200, last_rendered_at: new Date(TODAY - 2 * DAY).toISOString(), last_googlebot_at: new Date(TODAY - DAY).toISOString(), impressions: 100, _rowId: `${page('c')}|1` });
    expect(data[0].last_googlebot_at).toBeNull();
    // A noindex page bots keep requesting is the most urgent case.
    const urgent = await query('pages', { columns: ['url', 'urgent'], filters: [{ field: 'urgent', val: 1 }] });
    expect(urgent.data.map((r) => [r.url, r.urgent])).toEqual([[page('c'), 1]]);
  });

  it('filters on an issue code (or its absence), on noindex, and pages', async () => {
    const urls = async (body: RunExplorerQuery['body']) => (await query('pages', { columns: ['url'], sort: 'url', sortDir: 'asc', ...body })).data.map((r) => r.url);
    expect(await urls({ filters: [{ field: 'issue', op: 'eq', val: 'title_duplicate' }] })).toEqual([page('a'), page('b')]);
    expect(await urls({ filters: [{ field: 'issue', val: 'noindex' }] })).toEqual([page('c')]);
    expect(await urls({ filters: [{ field: 'issue', op: 'ne', val: 'title_duplicate' }, { field: 'noindex', val: 'no' }] })).toEqual([page('evil'), page('gone')]);
    const second = await query('pages', { columns: ['url'], sort: 'critical_issues', perPage: 2, page: 2 });
    expect(second.meta).toMatchObject({ total: 5, totalPages: 3, page: 2 });
  });

  it('refuses an unknown issue code, a sub-day period and an unknown column, naming the field', async () => {
    expect(await refusal(query('pages', { filters: [{ field: 'issue', val: 'nope' }] }))).toEqual({ code: 'VALIDATION_FAILED', field: 'filters[0].val' });
    expect(await refusal(query('pages', { period: '24h' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'period' });
    expect(await refusal(query('page_changes', { columns: ['title'] }))).toEqual({ code: 'VALIDATION_FAILED', field: 'columns[0]' });
  });

  it('lists the changes, newest first, filtered by severity and by the values before and after', async () => {
    const { data, meta } = await query('page_changes', {});
    expect(meta).toMatchObject({ explorerKey: 'page_changes', total: 1, sort: 'changed_at', period: '7d' });
    expect(data).toEqual([
      { url: page('c'), dimension: 'desktop', changed_at: new Date(TODAY - 2 * DAY).toISOString(), field: 'noindex', before: 'false', after: 'true', severity: 'critical', _rowId: `${page('c')}|1|2026-11-26|noindex` },
    ]);
    expect((await query('page_changes', { filters: [{ field: 'severity', val: 'critical' }] })).meta.total).toBe(1);
    expect((await query('page_changes', { filters: [{ field: 'severity', val: 'notice' }] })).meta.total).toBe(0);
    const turnedNoindex = [{ field: 'field', val: 'noindex' }, { field: 'before', op: 'equals', val: 'false' }, { field: 'after', op: 'equals', val: 'true' }];
    expect((await query('page_changes', { filters: turnedNoindex })).meta.total).toBe(1);
    expect((await query('page_changes', { filters: [{ field: 'after', op: 'equals', val: 'false' }] })).meta.total).toBe(0);
  });

  it("reads only the website's own host", async () => {
    expect((await query('pages', { columns: ['url'] }, 'shop', 'other')).data.map((r) => r.url)).toEqual(['https://shop.example.org/a']);
  });

  it('sums pages per issue code and severity, and changes per severity and day over the period; a bad period is refused naming it', async () => {
    const { data, meta } = await insights.execute(new GetSeoInsights('demo', 'acme', {}, clock.now()));
    expect(meta).toMatchObject({ period: '7d' });
    expect(data.pages).toBe(5);
    expect(data.issues.filter((issue) => issue.pages > 0)).toEqual([
      { code: 'noindex', severity: 'critical', pages: 1 },
      { code: 'status_4xx', severity: 'critical', pages: 1 },
      { code: 'title_duplicate', severity: 'warning', pages: 2 },
    ]);
    expect(data.issues).toHaveLength(ISSUE_CODES.length);
    expect(data.pagesWithIssues).toEqual({ critical: 2, warning: 2, notice: 0 });
    expect(data.changes).toEqual({ critical: 1, warning: 0, notice: 0 });
    expect(data.changesByDay).toEqual([{ t: TODAY - 2 * DAY, critical: 1, warning: 0, notice: 0 }]);
    expect((await insights.execute(new GetSeoInsights('demo', 'acme', { period: '24h' }, clock.now()))).data.changes.critical).toBe(0);
    expect(await refusal(insights.execute(new GetSeoInsights('demo', 'acme', { period: '2d' }, clock.now())))).toEqual({ code: 'VALIDATION_FAILED', field: 'period' });
  });

  it('counts a noindex page a sitemap lists (a sitemap recache named it in the period) as urgent, bots or not', async () => {
    const tables: TableRows = new Map();
    explorerRows(rendered(page('quiet'), TODAY - 2 * DAY, { ...noindex, canonical: page('quiet') }), tables);
    explorerRows(rendered(page('listed-long-ago'), TODAY - 2 * DAY, { ...noindex, canonical: page('listed-long-ago') }), tables);
    explorerRows(rendered(page('asked-by-api'), TODAY - 2 * DAY, { ...noindex, canonical: page('asked-by-api') }), tables);
    for (const [table, rows] of tables) await store.insert({ table, rows, token: `sitemap-${table}` });
    const receipt = (url: string, source: string, at: number, hostId = 1): RecacheReceiptRow => ({
      receipt_id: `r-${hostId}-${url}-${source}`, host_id: hostId, url, dimension_id: 1, source, priority: 'normal', requested_at: new Date(at).toISOString().replace('T', ' ').replace('Z', ''), event_id: `e-${hostId}-${url}-${source}`,
    });
    await store.insert({
      table: RECACHE_RECEIPTS_TABLE,
      token: 'sitemap-receipts',
      rows: [
        receipt(page('quiet'), 'sitemap', TODAY - 3 * DAY),
        receipt(page('a'), 'sitemap', TODAY - 3 * DAY), // listed, but indexable: not urgent
        receipt(page('listed-long-ago'), 'sitemap', TODAY - 40 * DAY), // before the 28 days
        receipt(page('asked-by-api'), 'public-api', TODAY - 3 * DAY), // a recache, not a sitemap
        receipt(page('quiet'), 'sitemap', TODAY - 3 * DAY, 2), // another host's sitemap
      ],
    });
    const rows = (await query('pages', { columns: ['url', 'urgent', 'in_sitemap'], sort: 'url', sortDir: 'asc', filters: [{ field: 'url', op: 'regex', val: '/(a|c|quiet|listed-long-ago|asked-by-api)$' }] })).data;
    expect(rows.map((r) => [r.url, r.urgent, r.in_sitemap])).toEqual([
      [page('a'), 0, 1],
      [page('asked-by-api'), 0, 0],
      [page('c'), 1, 0],
      [page('listed-long-ago'), 0, 0],
      [page('quiet'), 1, 1],
    ]);
    expect((await query('pages', { columns: ['url'], filters: [{ field: 'urgent', val: 1 }] })).meta.total).toBe(2);
  });
});
