import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildQuerySql, DEFAULT_LIMITS, QueryBody, resolveQuery, siteExplorerOf } from '@bpc/explorer';
import { createLogger } from '@bpc/platform';
import { startApps } from '@bpc/composition';
import type { BenchRow, BenchSuite } from './bench-row';
import { issueBenchToken, oneWebsiteBenchConfig } from './bench-service';
import { botRequestsSql, searchSql } from './explorer.bench';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import { interleavedP50 } from './timing';

/** The issue's 1,000,000 pages of one host, and as many coalesced changes over 90 days. */
const PAGES = Number(process.env.BENCH_PAGES ?? 1_000_000);
const CHANGES = Number(process.env.BENCH_PAGE_CHANGES ?? 1_000_000);
/** Bot requests over 12 months joined to the pages for the period (the explorer bench's traffic, fewer rows). */
const REQUESTS = Number(process.env.BENCH_PAGES_REQUESTS ?? 5_000_000);
const RUNS = 7;
const DAY = 86_400_000;

const ts = (ms: number) => `fromUnixTimestamp64Milli(toInt64(${Math.floor(ms)}))`;

/**
 * `PAGES` pages of host 1, generated inside the engine as the projector
 * writes them: one in 20 noindex, one in 50 answering 404, titles shared by
 * pairs of pages for one in 10, thin pages, issue codes and critical counts
 * that match, rendered over the last 60 days.
 */
function pagesSql(nowMs: number): string {
  const kind = 'cityHash64(number, 1) % 100';
  return `INSERT INTO pages (host_id, url, dimension_id, rendered_at, outcome, event_id, status_code, bytes, soft_404, title, title_length, description, lang, h1_count, first_h1,
      canonical, noindex_by, nofollow_by, hreflang_count, json_ld_types, json_ld_invalid, microdata_types, word_count, internal_links, external_links, images_without_alt, issues, critical_issues)
    SELECT 1, concat('https://www.example.com/p', toString(number)), 1, ${ts(nowMs)} - toIntervalSecond(cityHash64(number, 2) % ${60 * 86400}), 'stored', concat('e', toString(number)),
      if(${kind} < 2, 404, 200), 20000 + cityHash64(number, 3) % 80000, false,
      if(${kind} < 12, concat('Shared title ', toString(intDiv(number, 2))), concat('Page ', toString(number))), 20, 'A description', 'en', 1, 'Heading',
      concat('https://www.example.com/p', toString(number)), if(${kind} >= 2 AND ${kind} < 7, ['robots'], []), [], 0, ['Product'], 0, [], 100 + cityHash64(number, 4) % 900, 40, 2, 0,
      multiIf(${kind} < 2, ['status_4xx'], ${kind} < 7, ['noindex'], cityHash64(number, 4) % 900 < 100, ['thin_content'], []),
      if(${kind} < 7, 1, 0)
    FROM numbers(${PAGES})`;
}

/** `CHANGES` single changes over the last 90 days, through the projector's intake (the view coalesces them per day). */
function changesSql(nowMs: number): string {
  return `INSERT INTO page_change_events
    SELECT 1, concat('https://www.example.com/p', toString(cityHash64(number, 1) % ${PAGES})), 1,
      ['title', 'description', 'noindex', 'status_code', 'word_count', 'canonical'][(cityHash64(number, 2) % 6) + 1] AS field,
      if(field = 'noindex', 'false', 'before'), if(field = 'noindex', 'true', 'after'), multiIf(field IN ('noindex', 'status_code'), 3, field IN ('word_count', 'canonical'), 2, 1),
      ${ts(nowMs)} - toIntervalSecond(cityHash64(number, 3) % ${90 * 86400}), concat('c', toString(number))
    FROM numbers(${CHANGES})`;
}

/** A sitemap recache that named one page in ten, 3 days ago (what `in_sitemap` and `urgent` read). */
function sitemapReceiptsSql(nowMs: number): string {
  return `INSERT INTO recache_receipts SELECT 'bench-sitemap', 1, concat('https://www.example.com/p', toString(number * 10)), 1, 'sitemap', 'normal', ${ts(nowMs - 3 * DAY)}, concat('s', toString(number)) FROM numbers(${Math.ceil(PAGES / 10)})`;
}

/**
 * SEO health's explorers over HTTP (authentication, validation, admission,
 * the handler, JSON) against the same statements run directly on the
 * executor, over 1,000,000 pages and 1,000,000 changes: the issue's target
 * is the API adding at most 20 % to the engine's p50.
 */
export const pagesQueryBench: BenchSuite = {
  name: 'pages-query',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-pages-'));
    const rows: BenchRow[] = [];
    try {
      const config = oneWebsiteBenchConfig(dir);
      const running = await startApps([projectorApp, publicApiApp], config, createLogger('warn', 'bench-pages'));
      try {
        const store = running.runtime.ports.explorerStore!;
        const nowMs = Date.now();
        for (const sql of [pagesSql(nowMs), changesSql(nowMs), sitemapReceiptsSql(nowMs), botRequestsSql(nowMs, REQUESTS), ...searchSql(nowMs)]) await store.command(sql);
        for (const table of ['pages', 'page_changes', 'bot_requests']) await store.command(`OPTIMIZE TABLE ${table} FINAL`);
        const api = running.urls['public-api']!;
        const token = await issueBenchToken(api, 'readonly');
        const noindexTurned = [{ field: 'field', val: 'noindex' }, { field: 'before', op: 'equals', val: 'false' }, { field: 'after', op: 'equals', val: 'true' }];
        const cases: [string, string, QueryBody][] = [
          ['pages (defaults: 28d, most critical first, 100 rows)', 'pages', {}],
          ['pages 28d, issue noindex, most clicks first', 'pages', { filters: [{ field: 'issue', val: 'noindex' }], sort: 'clicks' }],
          ['pages 28d, urgent, URL contains', 'pages', { filters: [{ field: 'urgent', val: 1 }, { field: 'url', op: 'contains', val: '/p1' }] }],
          ['page_changes (defaults: 7d, newest first)', 'page_changes', {}],
          ['page_changes 90d, noindex turned on', 'page_changes', { period: '90d', filters: noindexTurned }],
        ];
        for (const [name, explorerKey, body] of cases) {
          const http = async () => {
            const response = await fetch(`${api}/api/websites/bench/data-explorer/${explorerKey}/query`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
            if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
            await response.json();
          };
          const direct = async () => {
            const sql = buildQuerySql(resolveQuery(siteExplorerOf(config, 'bench', explorerKey)!, body, Date.now(), DEFAULT_LIMITS), 'bench');
            await Promise.all([store.query(sql.countSql, sql.params), store.query(sql.pageSql, sql.params)]);
          };
          await http();
          await direct();
          const { measuredMs: h, baselineMs: d } = await interleavedP50(http, direct, RUNS);
          const scale = explorerKey === 'pages' ? `${PAGES.toLocaleString('en')} pages, ${REQUESTS.toLocaleString('en')} bot requests` : `${CHANGES.toLocaleString('en')} changes / 90 days`;
          rows.push({ name: `SEO health over HTTP: ${name}, ${scale} (p50)`, value: h, unit: 'ms', target: '<= 1.2 x direct', pass: h <= 1.2 * d, baseline: { name: 'same SQL on the executor', value: d, unit: 'ms' }, ratio: h / d });
        }
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
