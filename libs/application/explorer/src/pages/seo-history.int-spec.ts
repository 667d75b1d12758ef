import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAGE_ISSUE_CODES, type PageFacts } from '@bpc/domain';
import { newRenderRecorded, RenderRecorded } from '@bpc/events';
import { ExplorerAdmission, ExplorerStore, PAGE_CRITICAL_DAYS_TABLE } from '@bpc/explorer-store';
import { explorerRows, type TableRows } from '@bpc/projections';
import { closeInProcessExplorerStore, IN_PROCESS_EXPLORER_STORES, TestClock, testConfig } from '@bpc/testing';
import { factsWith } from '../../../../core/domain/src/pages/page-facts.fixtures';
import { GetSeoInsights, GetSeoInsightsHandler } from './seo-insights';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TODAY = Date.UTC(2026, 10, 28);
const NOW = TODAY + 12 * HOUR;
const page = (p: string) => `https://www.example.com/${p}`;
/** A page's own title and canonical (healthy otherwise): no issue unless `over` brings one. */
const factsOf = (p: string, over: Partial<PageFacts> = {}): PageFacts => factsWith({ title: `Page ${p}`, titleLength: 5 + p.length, canonical: page(p), ...over });

/**
 * The SEO insight's days on real tables (chDB), rows written as the explorer
 * projection writes them from RenderRecorded: each page counts on a day with
 * its latest render at or before it, carried across days without renders,
 * and the last day is the current figures (title_duplicate aside).
 */

describe.each(IN_PROCESS_EXPLORER_STORES)('SEO insight: pages with issues as of each day (%s)', (_name, open) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-seo-history-'));
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'other' }] });
  const clock = new TestClock(NOW);
  let store: ExplorerStore;
  let insights: GetSeoInsightsHandler;
  let made = 0;

  function rendered(url: string, at: number, facts: PageFacts, hostId = 1, dimensionId = 1): RenderRecorded {
    made += 1;
    const payload = { hostId, url, dimensionId, mode: 'render' as const, trigger: 'recache_normal' as const, outcome: 'stored' as const, reason: '', statusCode: facts.statusCode, renderMs: 900, bytes: facts.bytes, attempt: 1, facts };
    return { ...newRenderRecorded(payload, at), id: `render-${made}` };
  }

  beforeAll(async () => {
    store = open(path.join(dir, 'chdb'));
    await store.migrate();
    const tables: TableRows = new Map();
    const events = [
      // Healthy, then thin on day -4 (that day's earlier noindex render is not its latest), healthy again from day -2.
      rendered(page('flip'), TODAY - 6 * DAY, factsOf('flip')),
      rendered(page('flip'), TODAY - 4 * DAY + 8 * HOUR, factsOf('flip', { noindexBy: ['robots'] })),
      rendered(page('flip'), TODAY - 4 * DAY + 20 * HOUR, factsOf('flip', { wordCount: 120 })),
      rendered(page('flip'), TODAY - 2 * DAY, factsOf('flip')),
      // No h1 since before the period, fixed on day -3.
      rendered(page('before'), TODAY - 10 * DAY, factsOf('before', { h1Count: 0, firstH1: null })),
      rendered(page('before'), TODAY - 3 * DAY, factsOf('before')),
      // New on day -1 with a long title, on two dimensions.
      rendered(page('new'), TODAY - DAY, factsOf('new', { title: 'x'.repeat(70), titleLength: 70 })),
      rendered(page('new'), TODAY - DAY, factsOf('new', { title: 'x'.repeat(70), titleLength: 70 }), 1, 2),
      // The same title on two pages: title_duplicate now, which no day of the series says.
      rendered(page('dup-a'), TODAY - 5 * DAY, factsOf('dup-a', { title: 'Widgets', titleLength: 7 })),
      rendered(page('dup-b'), TODAY - 5 * DAY, factsOf('dup-b', { title: 'Widgets', titleLength: 7 })),
      // Another website's host.
      rendered('https://shop.example.org/a', TODAY - 3 * DAY, factsOf('a', { noindexBy: ['robots'] }), 2),
    ];
    for (const event of events) explorerRows(event, tables);
    // Rendered once long ago, noindex: its day row has gone with the TTL, its `pages` row stays.
    const old: TableRows = new Map();
    explorerRows(rendered(page('old'), TODAY - 200 * DAY, factsOf('old', { noindexBy: ['robots'] })), old);
    old.delete(PAGE_CRITICAL_DAYS_TABLE);
    for (const [table, rows] of old) tables.get(table)!.push(...rows);
    // Written twice (a projector batch retried): FINAL folds them.
    for (const [table, rows] of tables) for (const token of ['given', 'again']) await store.insert({ table, rows, token: `${token}-${table}` });
    const admission = new ExplorerAdmission({ maxRunning: 2, perAccount: 8 }, clock);
    insights = new GetSeoInsightsHandler(store, admission, clock, config);
  }, 60_000);

  afterAll(() => closeInProcessExplorerStore(store, dir, config.data_dir));

  const seo = async (period: string, websiteId = 'demo', accountId = 'acme') => (await insights.execute(new GetSeoInsights(websiteId, accountId, { period }, clock.now()))).data;
  const day = (d: number) => TODAY + d * DAY;

  it('counts each page on every day with its latest render at or before it, carried across days without renders', async () => {
    const data = await seo('7d');
    // Day -7 to today: the old page all along, the page without h1 until fixed, the flip's day -4 and -3, the new page on two dimensions.
    expect(data.pagesWithIssuesByDay).toEqual([
      { t: day(-7), critical: 1, warning: 1, notice: 0 },
      { t: day(-6), critical: 1, warning: 1, notice: 0 },
      { t: day(-5), critical: 1, warning: 1, notice: 0 },
      { t: day(-4), critical: 1, warning: 2, notice: 0 },
      { t: day(-3), critical: 1, warning: 1, notice: 0 },
      { t: day(-2), critical: 1, warning: 0, notice: 0 },
      { t: day(-1), critical: 1, warning: 0, notice: 2 },
      { t: day(0), critical: 1, warning: 0, notice: 2 },
    ]);
    const perDay = (code: 'noindex' | 'thin_content' | 'h1_missing' | 'title_too_long') => data.issuesByDay.map((d) => d[code]);
    expect(perDay('noindex')).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(perDay('thin_content')).toEqual([0, 0, 0, 1, 1, 0, 0, 0]);
    expect(perDay('h1_missing')).toEqual([1, 1, 1, 1, 0, 0, 0, 0]);
    expect(perDay('title_too_long')).toEqual([0, 0, 0, 0, 0, 0, 2, 2]);
    expect(data.issuesByDay.map((d) => d.t)).toEqual(data.pagesWithIssuesByDay.map((d) => d.t));
    expect(data.issuesByDay[0]).not.toHaveProperty('title_duplicate');
  });

  it('ends on the current figures, title_duplicate aside', async () => {
    for (const period of ['7d', '24h', '90d']) {
      const data = await seo(period);
      const last = data.issuesByDay.at(-1)!;
      expect([period, PAGE_ISSUE_CODES.map((code) => last[code])]).toEqual([period, PAGE_ISSUE_CODES.map((code) => data.issues.find((issue) => issue.code === code)!.pages)]);
      // The two pages whose only warning is their duplicate title are the difference.
      expect(data.issues.find((issue) => issue.code === 'title_duplicate')!.pages).toBe(2);
      expect(data.pagesWithIssuesByDay.at(-1)).toEqual({ t: TODAY, ...data.pagesWithIssues, warning: data.pagesWithIssues.warning - 2 });
    }
  });

  it("ends a past period on its last day's end, and starts one with what came before it", async () => {
    expect((await seo('2026-11-22,2026-11-24')).pagesWithIssuesByDay).toEqual([
      { t: day(-6), critical: 1, warning: 1, notice: 0 },
      { t: day(-5), critical: 1, warning: 1, notice: 0 },
      { t: day(-4), critical: 1, warning: 2, notice: 0 },
    ]);
    expect((await seo('24h')).pagesWithIssuesByDay.map((d) => d.t)).toEqual([day(-1), day(0)]);
    // 90 days back: the page without h1 from its render on day -10, the flip from day -6; the old page all along.
    const quarter = (await seo('90d')).pagesWithIssuesByDay;
    expect(quarter).toHaveLength(91);
    expect(quarter.slice(0, 80).every((d) => d.critical === 1 && d.warning === 0 && d.notice === 0)).toBe(true);
    expect(quarter[80]).toEqual({ t: day(-10), critical: 1, warning: 1, notice: 0 });
  });

  it("reads only the website's own host", async () => {
    const shop = await seo('7d', 'shop', 'other');
    expect(shop.pagesWithIssuesByDay.map((d) => d.critical)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });
});
