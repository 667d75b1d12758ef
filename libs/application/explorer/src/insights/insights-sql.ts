import { assertNever } from '@bpc/domain';
import type { TimeWindow } from '../periods/periods';
import type { ResolvedFilter } from '../resolve-query/resolve-query';
import { EVENT_FILTER_SQL, filterSql, SEARCH_FILTER_SQL } from '../sql/explorer-sql';
import { AI_BOT_CATEGORIES, type BotMetric, type Interval, type SearchMetric, type SplitBy, TOP_AI_PAGES_PER_CATEGORY } from './insights-catalog';
import { BOT_REQUESTS_TABLE, latestImportSql, SEARCH_TABLES } from '@bpc/explorer-store';

/**
 * SQL of the insights. Bot-request figures read `bot_requests FINAL` with the
 * `events` explorer's window and filter conditions, so they are the
 * explorer's figures at any moment (a duplicate the projector let in is
 * counted once). User values travel as bound parameters only.
 */

export interface InsightsStatement {
  readonly sql: string;
  readonly params: Record<string, unknown>;
}

const MAIN = 'ts >= {start:DateTime64(3)} AND ts < {end:DateTime64(3)}';
const COMP = 'ts >= {compStart:DateTime64(3)} AND ts < {compEnd:DateTime64(3)}';

/**
 * A render that failed: a miss the edge answered with its own error, 504
 * RENDER_TIMEOUT (not rendered within edge.render_timeout_ms) or 503
 * RENDER_FAILED. Origin 5xx answers are never cached nor served (the render
 * fails instead), so a recorded 503/504 miss is the edge's. A 503
 * UNAVAILABLE (the cache could not be read) is recorded the same way and is
 * counted with them.
 */
export const RENDER_FAILED_SQL = "cache_status = 'miss' AND status_code IN (503, 504)";

/** Figures of one window, each over the rows where `inWindow` holds. */
function windowFigures(inWindow: string, prefix: string): string[] {
  return [
    `countIf(${inWindow}) AS ${prefix}requests`,
    `countIf(${inWindow} AND cache_status = 'hit') AS ${prefix}hits`,
    `quantilesExactIf(0.5, 0.95)(serve_time_ms, ${inWindow}) AS ${prefix}serve_time`,
    `countIf(${inWindow} AND status_code BETWEEN 400 AND 499) AS ${prefix}c4xx`,
    `countIf(${inWindow} AND status_code BETWEEN 500 AND 599) AS ${prefix}c5xx`,
    `countIf(${inWindow} AND ${RENDER_FAILED_SQL}) AS ${prefix}renders_failed`,
  ];
}

/** The figures statement's one row: requests, hits, serve_time ([p50, p95]), c4xx, c5xx, renders_failed, and each again prefixed `comp_`. */
export type SummaryFiguresRow = Readonly<Record<string, unknown>>;

export interface SummaryPagesRow {
  readonly pages: number;
  readonly comp_pages: number;
  readonly new_pages: number;
  readonly lost_pages: number;
}

/**
 * The summary as two statements over the rows of both windows: the figures
 * (one row), and the pages per URL as the `comparison` mode groups them,
 * so `pages` is the `unique_pages` total and `new_pages`/`lost_pages` are the
 * comparison totals for compCategory new/lost (the same HAVING conditions).
 */
export function summarySql(websiteId: string, window: TimeWindow, compWindow: TimeWindow, filters: readonly ResolvedFilter[]): { figures: InsightsStatement; pages: InsightsStatement } {
  const params: Record<string, unknown> = { website: websiteId, start: window.start, end: window.end, compStart: compWindow.start, compEnd: compWindow.end };
  const where = eventConditions(`((${MAIN}) OR (${COMP}))`, filters, params).join(' AND ');
  return {
    figures: { sql: `SELECT ${[...windowFigures(`(${MAIN})`, ''), ...windowFigures(`(${COMP})`, 'comp_')].join(', ')} FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where}`, params },
    pages: {
      sql:
        'SELECT countIf(requests > 0) AS pages, countIf(comp_requests > 0) AS comp_pages, ' +
        'countIf(requests > 0 AND comp_requests = 0) AS new_pages, countIf(requests = 0 AND comp_requests > 0) AS lost_pages ' +
        `FROM (SELECT url, countIf(${MAIN}) AS requests, countIf(${COMP}) AS comp_requests FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} GROUP BY url)`,
      params,
    },
  };
}

export interface BotCategoryRow {
  readonly category: string;
  readonly requests: number;
  readonly pages: number;
}

export interface AiAgentsRow {
  readonly requests: number;
  readonly pages: number;
}

export interface AiPageRow {
  readonly category: string;
  readonly url: string;
  readonly requests: number;
}

/**
 * Who read the website in one window, as three statements over the `events`
 * explorer's rows: requests and pages per category, AI agents together
 * (distinct pages across their categories), and each AI category's most
 * requested pages (`LIMIT … BY`, so one statement for all of them).
 */
export function botCategoriesSql(websiteId: string, window: TimeWindow, filters: readonly ResolvedFilter[]): { categories: InsightsStatement; aiAgents: InsightsStatement; topAiPages: InsightsStatement } {
  const params: Record<string, unknown> = { website: websiteId, start: window.start, end: window.end, ai: [...AI_BOT_CATEGORIES], top: TOP_AI_PAGES_PER_CATEGORY };
  const where = eventConditions(MAIN, filters, params).join(' AND ');
  const ai = `${where} AND bot_category IN {ai:Array(String)}`;
  return {
    categories: { sql: `SELECT bot_category AS category, count() AS requests, uniqExact(url) AS pages FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} GROUP BY category ORDER BY requests DESC, category ASC`, params },
    aiAgents: { sql: `SELECT count() AS requests, uniqExact(url) AS pages FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${ai}`, params },
    topAiPages: {
      sql: `SELECT bot_category AS category, url, count() AS requests FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${ai} GROUP BY category, url ORDER BY category ASC, requests DESC, url ASC LIMIT {top:UInt32} BY category`,
      params,
    },
  };
}

const BOT_METRIC_SQL: Readonly<Record<BotMetric, string>> = {
  requests: 'count()',
  pages: 'uniqExact(url)',
  hit_rate: "round(countIf(cache_status = 'hit') / count(), 4)",
  serve_time_p50: 'quantileExact(0.5)(serve_time_ms)',
  serve_time_p95: 'quantileExact(0.95)(serve_time_ms)',
};

/** The recorded column each split reads: bot families are the names the edge records (`Googlebot`, `Bingbot` …). */
const SPLIT_SQL: Readonly<Record<SplitBy, string>> = {
  bot_family: 'bot_name',
  cache_status: 'toString(cache_status)',
  status_class: "concat(toString(intDiv(status_code, 100)), 'xx')",
  dimension: 'dimension_name',
  bot_category: 'bot_category',
  bot_operator: 'bot_operator',
  verified: 'verified',
  robots_allowed: 'robots_allowed',
  format: 'format',
};

const BUCKET_SQL: Readonly<Record<Interval, string>> = {
  hour: 'toStartOfHour(ts)',
  day: 'toStartOfDay(ts)',
};

/** One bot-request metric per bucket (`t`, epoch ms of its UTC start) and series key (`k`) over one window. */
export function botTimeseriesSql(websiteId: string, metric: BotMetric, interval: Interval, splitBy: SplitBy | undefined, window: TimeWindow, filters: readonly ResolvedFilter[]): InsightsStatement {
  const params: Record<string, unknown> = { website: websiteId, start: window.start, end: window.end };
  const where = eventConditions(MAIN, filters, params).join(' AND ');
  const key = splitBy === undefined ? "'all'" : SPLIT_SQL[splitBy];
  return {
    sql: `SELECT toUnixTimestamp(${BUCKET_SQL[interval]}) * 1000 AS t, ${key} AS k, ${BOT_METRIC_SQL[metric]} AS v FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} GROUP BY t, k`,
    params,
  };
}

/** As the `search-pages` explorer aggregates its columns, per day. */
function searchMetricSql(metric: SearchMetric): string {
  switch (metric) {
    case 'clicks':
      return 'sum(s_clicks)';
    case 'impressions':
      return 'sum(s_impressions)';
    case 'ctr':
      return 'if(sum(s_impressions) = 0, NULL, round(sum(s_clicks) / sum(s_impressions), 4))';
    case 'position':
      return 'if(sum(s_impressions) = 0, NULL, round(sum(s_position * s_impressions) / sum(s_impressions), 2))';
    default:
      return assertNever(metric);
  }
}

/** One search metric per day (`t`, epoch ms of the UTC day) over a whole-day window: page rows, each day's latest import only. */
export function searchTimeseriesSql(websiteId: string, metric: SearchMetric, window: TimeWindow, filters: readonly ResolvedFilter[]): InsightsStatement {
  const params: Record<string, unknown> = { website: websiteId, startDate: window.start.toISOString().slice(0, 10), endDate: window.end.toISOString().slice(0, 10) };
  const conditions = ['website = {website:String}', 'date >= {startDate:Date}', 'date < {endDate:Date}', latestImportSql('page'), ...filters.map((f, i) => filterSql(f, SEARCH_FILTER_SQL[f.field], params, i))];
  // Renamed in a subquery so the aggregates never read an output alias.
  const source = `(SELECT date AS s_date, clicks AS s_clicks, impressions AS s_impressions, position AS s_position FROM ${SEARCH_TABLES.page} FINAL WHERE ${conditions.join(' AND ')})`;
  return { sql: `SELECT toUnixTimestamp(toDateTime(s_date)) * 1000 AS t, 'all' AS k, ${searchMetricSql(metric)} AS v FROM ${source} GROUP BY t`, params };
}

/** The `events` explorer's conditions: the website, the window(s), then each filter on its whitelisted column. */
export function eventConditions(windows: string, filters: readonly ResolvedFilter[], params: Record<string, unknown>): string[] {
  return ['website = {website:String}', windows, ...filters.map((f, i) => filterSql(f, EVENT_FILTER_SQL[f.field], params, i))];
}
