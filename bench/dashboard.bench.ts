import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { botCategoriesSql, botTimeseriesSql, buildExplorerSql, DEFAULT_LIMITS, findExplorer, InsightsStatement, resolveInsightsBotCategories, resolveInsightsSummary, resolveInsightsTimeseries, resolveQuery, summarySql } from '@bpc/explorer';
import type { ExplorerStore } from '@bpc/explorer-store';
import { createLogger } from '@bpc/platform';
import { startApps } from '@bpc/composition';
import type { BenchRow, BenchSuite } from './bench-row';
import { BENCH_INTERNAL_KEY, issueBenchToken, oneWebsiteBenchConfig } from './bench-service';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import { botRequestsSql } from './explorer.bench';
import { upperMedian } from './stats';
import { interleavedP50 } from './timing';
import { until } from '../test/harness/until';
import { explorerRowsRenderMs, firstPageJsGzipBytes } from './dashboard-browser';
import { lighthouseFigures, lighthouseRows } from './dashboard-lighthouse';

const ROWS = Number(process.env.BENCH_DASHBOARD_ROWS ?? 10_000_000);
const RUNS = 9;
const TARGET_MS = 500;
const FIRST_PAGE_JS_BUDGET_KB = 250;
const RENDERS = 7;
const RENDER_TARGET_MS = 200;
/** Lighthouse's figures vary from run to run (CPU time on a shared machine): the median of this many. */
const LIGHTHOUSE_RUNS = 3;
const LIGHTHOUSE_PAGES: Readonly<Record<string, string>> = { '/w/bench': 'Overview', '/w/bench/search': 'Search', '/w/bench/explorer': 'Explorer' };

/** The overview's top pages: the explorer's `unique_pages` with only the columns a top-pages list shows (each further column is work per URL). */
const TOP_PAGES = { mode: 'unique_pages', period: '30d', perPage: 10, columns: ['page', 'requests'] };

/** One API call of the overview, and the statements it runs, for the baseline on the engine alone. */
interface OverviewCall {
  readonly name: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly statements: (nowMs: number) => InsightsStatement[];
}

/** What the dashboard's overview asks for a 30-day window: the figures, two charts, who reads, the top pages. */
const OVERVIEW: readonly OverviewCall[] = [
  {
    name: 'summary 30d vs previous',
    path: 'insights/summary',
    body: { period: '30d' },
    statements: (nowMs) => {
      const { main, comparison, filters } = resolveInsightsSummary({ period: '30d' }, nowMs);
      const sql = summarySql('bench', main.window, comparison.window, filters);
      return [sql.figures, sql.pages];
    },
  },
  ...(['bot_family', 'cache_status'] as const).map(
    (splitBy): OverviewCall => ({
      name: `timeseries requests by ${splitBy}, 30d daily`,
      path: 'insights/timeseries',
      body: { metric: 'requests', period: '30d', splitBy },
      statements: (nowMs) => {
        const query = resolveInsightsTimeseries({ metric: 'requests', period: '30d', splitBy }, nowMs);
        return [botTimeseriesSql('bench', 'requests', query.interval, splitBy, query.main.window, query.filters)];
      },
    }),
  ),
  {
    name: 'who reads (bot categories 30d, AI agents, top AI pages)',
    path: 'insights/bot-categories',
    body: { period: '30d' },
    statements: (nowMs) => {
      const { main, filters } = resolveInsightsBotCategories({ period: '30d' }, nowMs);
      const sql = botCategoriesSql('bench', main.window, filters);
      return [sql.categories, sql.aiAgents, sql.topAiPages];
    },
  },
  {
    name: 'top pages (events unique_pages 30d, page and requests, 10 rows)',
    path: 'data-explorer/events/query',
    body: TOP_PAGES,
    statements: (nowMs) => {
      const sql = buildExplorerSql(resolveQuery(findExplorer('events')!, TOP_PAGES, nowMs, DEFAULT_LIMITS), 'bench');
      return [{ sql: sql.countSql, params: sql.params }, { sql: sql.pageSql, params: sql.params }];
    },
  },
];

/**
 * The overview's API calls over HTTP against the same SQL on the engine: 12
 * months of skewed bot traffic (the explorer suite's table, `ROWS` rows), a
 * 30-day window. Each call alone, then all of them at once as the dashboard
 * sends them; p50 of interleaved runs. Then the browser side: the first
 * page's JavaScript, a 500-row explorer page rendered in Chromium, and
 * Lighthouse on three pages of a service holding the demo data.
 */
export const dashboardBench: BenchSuite = {
  name: 'dashboard',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-dashboard-'));
    const nowMs = Date.now();
    const rows: BenchRow[] = [];
    try {
      const config = oneWebsiteBenchConfig(dir);
      const running = await startApps([projectorApp, publicApiApp], config, createLogger('warn', 'bench-dashboard'));
      try {
        const store = running.runtime.ports.explorerStore!;
        await store.command(botRequestsSql(nowMs, ROWS));
        await store.command('OPTIMIZE TABLE bot_requests FINAL');
        const api = running.urls['public-api']!;
        const token = await issueBenchToken(api, 'readonly');
        const size = `${ROWS.toLocaleString('en')} rows / 12 months`;

        const http = async (call: OverviewCall) => {
          const response = await fetch(`${api}/api/websites/bench/${call.path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(call.body) });
          if (response.status !== 200) throw new Error(`${call.name}: ${response.status} ${await response.text()}`);
          await response.json();
        };
        const direct = (call: OverviewCall) => runAll(store, call.statements(Date.now()));
        const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
          ...OVERVIEW.map((call): [string, () => Promise<unknown>, () => Promise<unknown>] => [call.name, () => http(call), () => direct(call)]),
          ['the overview: all its calls at once', () => Promise.all(OVERVIEW.map(http)), () => Promise.all(OVERVIEW.map(direct))],
        ];
        for (const [name, overHttp, onEngine] of cases) {
          await overHttp();
          await onEngine();
          const { measuredMs: h, baselineMs: d } = await interleavedP50(overHttp, onEngine, RUNS);
          const overview = name.startsWith('the overview');
          rows.push({
            name: `dashboard ${name}, ${size} (p50)`,
            value: h,
            unit: 'ms',
            target: overview ? `<= ${TARGET_MS} ms` : '',
            ...(overview ? { pass: h <= TARGET_MS } : {}),
            baseline: { name: 'same SQL on the engine', value: d, unit: 'ms' },
            ratio: h / d,
          });
        }

        const jsKb = firstPageJsGzipBytes() / 1024;
        rows.push({ name: 'dashboard JavaScript for the first page (sign-in and shell, gzipped)', value: jsKb, unit: 'KB', target: `<= ${FIRST_PAGE_JS_BUDGET_KB} KB`, pass: jsKb <= FIRST_PAGE_JS_BUDGET_KB });
        const renderMs = upperMedian(await explorerRowsRenderMs(api, token, 'bench', RENDERS));
        rows.push({ name: `dashboard 500-row explorer page rendered after its data arrives, Chromium (median of ${RENDERS})`, value: renderMs, unit: 'ms', target: `<= ${RENDER_TARGET_MS} ms`, pass: renderMs <= RENDER_TARGET_MS });
      } finally {
        await running.close();
      }
      rows.push(...(await demoLighthouseRows(path.join(dir, 'demo'))));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

/** A call's statements side by side, as its handler runs them. */
function runAll(store: ExplorerStore, statements: readonly InsightsStatement[]): Promise<unknown> {
  return Promise.all(statements.map((s) => store.query(s.sql, s.params)));
}

/**
 * Lighthouse on the Overview, Search and Explorer pages of a service holding
 * what `cli demo-data` writes (120 days, about 178k bot requests, search
 * performance), as a newcomer sees the demo: the figures the issue targets.
 */
async function demoLighthouseRows(dir: string): Promise<BenchRow[]> {
  const running = await startApps([projectorApp, publicApiApp], oneWebsiteBenchConfig(dir), createLogger('warn', 'bench-dashboard-lighthouse'));
  try {
    const api = running.urls['public-api']!;
    const answer = await fetch(`${api}/internal/admin/demo-data`, { method: 'POST', headers: { 'x-internal-auth': BENCH_INTERNAL_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ website: 'bench' }) });
    if (answer.status !== 200) throw new Error(`demo-data: ${answer.status} ${await answer.text()}`);
    const { botRequests } = (await answer.json()) as { botRequests: number };
    const store = running.runtime.ports.explorerStore!;
    const projected = async () => Number((await store.query<{ n: number }>('SELECT count() AS n FROM bot_requests FINAL'))[0]!.n);
    // The pages would show a part of the demo data before the projector has written all of it.
    await until(projected, (n) => n === botRequests, { timeoutMs: 300_000, what: 'the demo data in the explorer' });
    const token = await issueBenchToken(api, 'manager');
    const figures = await lighthouseFigures(api, token, Object.keys(LIGHTHOUSE_PAGES), LIGHTHOUSE_RUNS);
    return lighthouseRows(figures, (page) => LIGHTHOUSE_PAGES[page] ?? page, `${botRequests.toLocaleString('en')} demo rows (median of ${LIGHTHOUSE_RUNS})`);
  } finally {
    await running.close();
  }
}
