import { assertNever } from '@bpc/domain';
import { companionsOf, ModeKey, Operator } from '../catalog/explorer-catalog';
import type { ResolvedFilter, ResolvedQuery } from '../resolve-query/resolve-query';
import { BOT_REQUESTS_TABLE, latestImportSql, SEARCH_TABLES } from '@bpc/explorer-store';

/**
 * SQL for every (mode, column) of the catalog. Only these expressions and
 * the operator templates below ever reach the store; user values travel as
 * bound `{name:Type}` parameters. Output aliases are the column keys; none
 * shadows a table column with a different meaning.
 */
/** A dimension id as the host's dimension name (an id the configuration no longer has shows as its number). */
export const DIMENSION_NAME_SQL = 'transform(dimension_id, {dimIds:Array(UInt16)}, {dimNames:Array(String)}, toString(dimension_id))';

/** SEO health's most urgent case: a noindex page that bots requested in the period, or that a sitemap recache named in it (the sitemap lists it). */
export const PAGE_URGENT_SQL = "if(p_noindex != '' AND (p_requests > 0 OR p_in_sitemap = 1), 1, 0)";

export const COLUMN_SQL: Readonly<Record<ModeKey, Readonly<Record<string, string>>>> = {
  requests: {
    page: 'url',
    _title: 'page_title',
    _status_code: 'status_code',
    event_date_time: 'toUnixTimestamp64Milli(ts)',
    bot_name: 'bot_name',
    serve_time: 'serve_time_ms',
    status_code: 'status_code',
    cache_status: 'toString(cache_status)',
    dimension: 'dimension_name',
    snapshot_age: 'snapshot_age_s',
    bytes: 'bytes',
    user_agent: 'user_agent',
    host: 'host',
    bot_category: 'bot_category',
    bot_operator: 'bot_operator',
    verified: 'verified',
    robots_allowed: 'robots_allowed',
    format: 'format',
  },
  unique_pages: {
    page: 'url',
    _title: 'argMax(page_title, ts)',
    _status_code: 'argMax(status_code, ts)',
    requests: 'count()',
    bots: 'uniqExact(bot_name)',
    avg_serve_time: 'round(avg(serve_time_ms))',
    max_serve_time: 'max(serve_time_ms)',
    hit_rate: "round(countIf(cache_status = 'hit') / count(), 4)",
    last_event_date_time: 'toUnixTimestamp64Milli(max(ts))',
  },
  comparison: {
    page: 'url',
    _title: 'argMax(page_title, ts)',
    _status_code: 'argMax(status_code, ts)',
    requests: 'countIf(ts >= {start:DateTime64(3)} AND ts < {end:DateTime64(3)})',
    comp_requests: 'countIf(ts >= {compStart:DateTime64(3)} AND ts < {compEnd:DateTime64(3)})',
    requests_change: 'toInt64(requests) - toInt64(comp_requests)',
    avg_serve_time: 'if(requests = 0, NULL, round(avgIf(serve_time_ms, ts >= {start:DateTime64(3)} AND ts < {end:DateTime64(3)})))',
    comp_avg_serve_time: 'if(comp_requests = 0, NULL, round(avgIf(serve_time_ms, ts >= {compStart:DateTime64(3)} AND ts < {compEnd:DateTime64(3)})))',
  },
  search_pages: {
    page: 's_key',
    clicks: 'sum(s_clicks)',
    impressions: 'sum(s_impressions)',
    ctr: 'if(sum(s_impressions) = 0, 0, round(sum(s_clicks) / sum(s_impressions), 4))',
    position: 'if(sum(s_impressions) = 0, NULL, round(sum(s_position * s_impressions) / sum(s_impressions), 2))',
  },
  search_keywords: {
    keyword: 's_key',
    clicks: 'sum(s_clicks)',
    impressions: 'sum(s_impressions)',
    ctr: 'if(sum(s_impressions) = 0, 0, round(sum(s_clicks) / sum(s_impressions), 4))',
    position: 'if(sum(s_impressions) = 0, NULL, round(sum(s_position * s_impressions) / sum(s_impressions), 2))',
  },
  // SEO health (buildPagesSql): the flat columns of its inner query, prefixed so no output alias shadows them.
  pages: {
    url: 'p_url',
    dimension: 'p_dimension',
    title: 'p_title',
    description: 'p_description',
    canonical: 'p_canonical',
    noindex: 'p_noindex',
    status_code: 'p_status_code',
    word_count: 'p_word_count',
    h1: 'p_h1',
    lang: 'p_lang',
    structured_data: 'p_structured_data',
    images_without_alt: 'p_images_without_alt',
    issues: "arrayStringConcat(p_issues, ', ')",
    critical_issues: 'p_critical_issues',
    urgent: PAGE_URGENT_SQL,
    in_sitemap: 'p_in_sitemap',
    last_rendered_at: 'toUnixTimestamp64Milli(p_rendered_at)',
    requests: 'p_requests',
    last_googlebot_at: 'if(p_googlebot = 0, NULL, toUnixTimestamp64Milli(p_last_googlebot))',
    clicks: 'p_clicks',
    impressions: 'p_impressions',
  },
  page_changes: {
    url: 'c_url',
    dimension: 'c_dimension',
    changed_at: 'toUnixTimestamp64Milli(c_changed_at)',
    field: 'c_field',
    before: 'c_before',
    after: 'c_after',
    severity: 'c_severity',
    renders: 'c_renders',
  },
  // Render history (render_outcomes, buildRendersSql). LowCardinality columns are output as they are: an alias
  // `toString(mode) AS mode` would be cyclic. `{dimIds}`/`{dimNames}` are the host's dimensions.
  renders: {
    page: 'url',
    rendered_at: 'toUnixTimestamp64Milli(ts)',
    dimension: DIMENSION_NAME_SQL,
    mode: 'mode',
    trigger: 'trigger',
    outcome: 'outcome',
    reason: 'reason',
    status_code: 'status_code',
    render_ms: 'render_ms',
    bytes: 'bytes',
    attempt: 'attempt',
    // From the receipts joined by entry id (buildRendersSql joins them only when asked for).
    receipt: 'r_receipt_id',
  },
  reasons: {
    outcome: 'outcome',
    reason: 'reason',
    renders: 'count()',
    pages: 'uniqExact(url)',
    avg_render_ms: 'round(avg(render_ms))',
    last_rendered_at: 'toUnixTimestamp64Milli(max(ts))',
  },
};

/** Sorting by the stored timestamp rather than its millisecond rendering lets ClickHouse read in key order. */
export const SORT_SQL: Partial<Record<ModeKey, Readonly<Record<string, string>>>> = {
  requests: { event_date_time: 'ts' },
  renders: { rendered_at: 'ts' },
  // Issues by how bad they are rather than alphabetically; severities likewise.
  pages: { issues: 'p_critical_issues * 1000 + length(p_issues)', last_rendered_at: 'p_rendered_at', last_googlebot_at: 'p_last_googlebot' },
  page_changes: { severity: "multiIf(c_severity = 'critical', 3, c_severity = 'warning', 2, 1)", changed_at: 'c_changed_at' },
};

/** Table column each filter field reads, per explorer family. */
export const EVENT_FILTER_SQL: Readonly<Record<string, string>> = {
  url: 'url',
  bot_name: 'bot_name',
  status_code: 'status_code',
  serve_time: 'serve_time_ms',
  cache_status: 'toString(cache_status)',
  bot_category: 'bot_category',
  bot_operator: 'bot_operator',
  verified: 'verified',
  robots_allowed: 'robots_allowed',
  format: 'format',
};
export const SEARCH_FILTER_SQL: Readonly<Record<string, string>> = { url: 'url', keyword: 'query' };
export const RENDER_FILTER_SQL: Readonly<Record<string, string>> = {
  url: 'url',
  outcome: 'outcome',
  outcome_class: "multiIf(outcome = 'stored', 'stored', outcome IN ('retry_scheduled', 'gave_up', 'failed'), 'failed', 'kept')",
  trigger: 'trigger',
  mode: 'mode',
  reason: 'reason',
  status_code: 'status_code',
  render_ms: 'render_ms',
  dimension: DIMENSION_NAME_SQL,
};

export interface ExplorerSql {
  readonly countSql: string;
  readonly pageSql: string;
  readonly params: Record<string, unknown>;
  /**
   * Search rows carry no title or status: `page` companions come from the
   * latest bot request for the URL within the window. Bind `{urls}` to the
   * page's URLs.
   */
  readonly companionSql?: string;
}

export function buildExplorerSql(query: ResolvedQuery, websiteId: string): ExplorerSql {
  const params: Record<string, unknown> = { website: websiteId };
  const mode = query.mode.key;
  const rowId = mode === 'requests' ? 'request_id' : mode === 'search_pages' || mode === 'search_keywords' ? 's_key' : 'url';
  // Aggregates referenced by other expressions (requests_change, avg_serve_time) must be selected too.
  const { select, order } = selectAndOrder(query, rowId, mode === 'comparison' ? ['requests', 'comp_requests'] : [], params);
  const exprs = COLUMN_SQL[mode];

  switch (mode) {
    case 'requests': {
      const where = eventWhere(query, params, 'main');
      return {
        countSql: `SELECT count() AS total FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where}`,
        pageSql: `SELECT ${select.join(', ')} FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} ${order}`,
        params,
      };
    }
    case 'unique_pages': {
      const where = eventWhere(query, params, 'main');
      return {
        countSql: `SELECT uniqExact(url) AS total FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where}`,
        pageSql: `SELECT ${select.join(', ')} FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} GROUP BY url ${order}`,
        params,
      };
    }
    case 'comparison': {
      const where = eventWhere(query, params, 'both');
      const having = categoryHaving(query);
      const counts = `${exprs.requests} AS requests, ${exprs.comp_requests} AS comp_requests`;
      return {
        countSql: `SELECT count() AS total FROM (SELECT url, ${counts} FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} GROUP BY url HAVING ${having})`,
        pageSql: `SELECT ${select.join(', ')} FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} GROUP BY url HAVING ${having} ${order}`,
        params,
      };
    }
    case 'search_pages':
    case 'search_keywords': {
      const table = SEARCH_TABLES[mode === 'search_pages' ? 'page' : 'query'];
      const keyColumn = mode === 'search_pages' ? 'url' : 'query';
      params.startDate = query.window.start.toISOString().slice(0, 10);
      params.endDate = query.window.end.toISOString().slice(0, 10);
      const conditions = ['website = {website:String}', 'date >= {startDate:Date}', 'date < {endDate:Date}', latestImportSql(mode === 'search_pages' ? 'page' : 'query'), ...query.filters.map((f, i) => filterSql(f, SEARCH_FILTER_SQL[f.field], params, i))];
      // Renamed in a subquery so output aliases (clicks, position …) never shadow the stored columns inside aggregates.
      const source = `(SELECT ${keyColumn} AS s_key, clicks AS s_clicks, impressions AS s_impressions, position AS s_position FROM ${table} FINAL WHERE ${conditions.join(' AND ')})`;
      params.start = query.window.start;
      params.end = query.window.end;
      const companionSql =
        mode === 'search_pages' && query.columns.includes('page')
          ? `SELECT url, argMax(page_title, ts) AS _title, argMax(status_code, ts) AS _status_code FROM ${BOT_REQUESTS_TABLE} WHERE website = {website:String} AND ts >= {start:DateTime64(3)} AND ts < {end:DateTime64(3)} AND url IN {urls:Array(String)} GROUP BY url`
          : undefined;
      return {
        countSql: `SELECT uniqExact(s_key) AS total FROM ${source}`,
        pageSql: `SELECT ${select.join(', ')} FROM ${source} GROUP BY s_key ${order}`,
        params,
        companionSql,
      };
    }
    case 'renders':
    case 'reasons':
      throw new Error('render history reads render_outcomes of a host: buildRendersSql (or buildQuerySql) builds it');
    case 'pages':
    case 'page_changes':
      throw new Error('SEO health reads the pages of a host: buildPagesSql (or buildQuerySql) builds it');
    default:
      return assertNever(mode);
  }
}

/**
 * The SELECT list (row id, requested columns with their companions, helper
 * aggregates, the sort column) and the ORDER BY … LIMIT of a page; binds
 * `{limit}` and `{offset}`.
 */
export function selectAndOrder(query: ResolvedQuery, rowId: string, helpers: readonly string[], params: Record<string, unknown>): { select: string[]; order: string } {
  params.limit = query.perPage;
  params.offset = (query.page - 1) * query.perPage;
  const mode = query.mode.key;
  const exprs = COLUMN_SQL[mode];
  const selected = [...new Set([...query.columns, ...query.columns.flatMap((c) => companionsOf(query.explorer, c))])].filter((c) => exprs[c] !== undefined);
  const select = [`${rowId} AS _rowId`, ...[...new Set([...helpers, ...selected])].map((c) => `${exprs[c]} AS ${c}`)];
  const sortKey = SORT_SQL[mode]?.[query.sort] ?? (exprs[query.sort] ? query.sort : undefined);
  if (sortKey === undefined) throw new Error(`no SQL for sort column ${query.sort} in mode ${mode}`);
  if (!select.some((s) => s.endsWith(` AS ${query.sort}`)) && !SORT_SQL[mode]?.[query.sort]) select.push(`${exprs[query.sort]} AS ${query.sort}`);
  const order = `ORDER BY ${sortKey} ${query.sortDir === 'asc' ? 'ASC' : 'DESC'}, _rowId ASC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
  return { select, order };
}

function eventWhere(query: ResolvedQuery, params: Record<string, unknown>, windows: 'main' | 'both'): string {
  params.start = query.window.start;
  params.end = query.window.end;
  const conditions = ['website = {website:String}'];
  if (windows === 'main' || !query.comparison) {
    conditions.push('ts >= {start:DateTime64(3)}', 'ts < {end:DateTime64(3)}');
  } else {
    params.compStart = query.comparison.window.start;
    params.compEnd = query.comparison.window.end;
    conditions.push('((ts >= {start:DateTime64(3)} AND ts < {end:DateTime64(3)}) OR (ts >= {compStart:DateTime64(3)} AND ts < {compEnd:DateTime64(3)}))');
  }
  query.filters.forEach((f, i) => conditions.push(filterSql(f, EVENT_FILTER_SQL[f.field], params, i)));
  return conditions.join(' AND ');
}

function categoryHaving(query: ResolvedQuery): string {
  const category = query.comparison?.category ?? 'new';
  switch (category) {
    case 'new':
      return 'requests > 0 AND comp_requests = 0';
    case 'returning':
      return 'requests > 0 AND comp_requests > 0';
    case 'lost':
      return 'requests = 0 AND comp_requests > 0';
    default:
      return assertNever(category);
  }
}

/** One filter as SQL over a whitelisted column, its values bound as `f<i>` / `f<i>_2`. */
export function filterSql(filter: ResolvedFilter, column: string | undefined, params: Record<string, unknown>, index: number): string {
  if (column === undefined) throw new Error(`no SQL column for filter ${filter.field}`);
  const p = `f${index}`;
  const op: Operator = filter.op;
  const text = () => {
    params[p] = String(filter.val);
    return `{${p}:String}`;
  };
  const num = () => {
    params[p] = filter.val;
    return `{${p}:Float64}`;
  };
  switch (op) {
    case 'contains':
      return `positionCaseInsensitiveUTF8(${column}, ${text()}) > 0`;
    case 'not_contains':
      return `positionCaseInsensitiveUTF8(${column}, ${text()}) = 0`;
    case 'equals':
      return `${column} = ${text()}`;
    case 'not_equals':
      return `${column} != ${text()}`;
    case 'regex':
      return `match(${column}, ${text()})`;
    case 'not_regex':
      return `NOT match(${column}, ${text()})`;
    case 'empty':
      return `${column} = ''`;
    case 'not_empty':
      return `${column} != ''`;
    case 'eq':
      return typeof filter.val === 'string' ? `${column} = ${text()}` : `${column} = ${num()}`;
    case 'ne':
      return typeof filter.val === 'string' ? `${column} != ${text()}` : `${column} != ${num()}`;
    case 'gt':
      return `${column} > ${num()}`;
    case 'gte':
      return `${column} >= ${num()}`;
    case 'lt':
      return `${column} < ${num()}`;
    case 'lte':
      return `${column} <= ${num()}`;
    case 'between':
      params[`${p}_2`] = filter.val2;
      return `${column} BETWEEN ${num()} AND {${p}_2:Float64}`;
    default:
      return assertNever(op);
  }
}
