import { assertNever, ISSUE_SEVERITIES, PAGE_ISSUE_CODES } from '@bpc/domain';
import { BOT_REQUESTS_TABLE, latestImportSql, PAGE_CHANGES_MERGED_SQL, PAGE_CRITICAL_DAYS_TABLE, PAGES_TABLE, RECACHE_RECEIPTS_TABLE, SEARCH_TABLES } from '@bpc/explorer-store';
import type { ResolvedFilter, ResolvedQuery } from '../resolve-query/resolve-query';
import { DIMENSION_NAME_SQL, ExplorerSql, filterSql, PAGE_URGENT_SQL, selectAndOrder } from '../sql/explorer-sql';
import type { PagesDef } from './site-explorer';

/**
 * SQL of SEO health's explorers over one host's rows (`{hostId}`, the
 * tables' leading key). Each builds one flat inner query whose columns are
 * prefixed (`p_`, `c_`), then filters, sorts and pages over it with the
 * catalog's whitelisted expressions; user values travel as bound parameters.
 */

/** Issues that make a page an error page: `issuesOf` reports nothing else for one but `noindex`, so `title_duplicate` is not added to it either. */
const ERROR_ISSUES_SQL = "['status_4xx', 'status_5xx', 'soft_404']";
const GOOGLEBOT_SQL = "startsWith(bot_name, 'Googlebot')";
const DAY_MS = 86_400_000;

/** The exclusive end day of the days a window ending at `end` touches (the day of `end` itself unless it is midnight). */
export const daysTouchedEnd = (end: Date): string => new Date(end.getTime() + DAY_MS - 1).toISOString().slice(0, 10);

export const PAGES_FILTER_SQL: Readonly<Record<string, string>> = {
  url: 'p_url',
  title: 'p_title',
  dimension: 'p_dimension',
  noindex: "if(p_noindex = '', 'no', 'yes')",
  status_code: 'p_status_code',
  word_count: 'p_word_count',
  critical_issues: 'p_critical_issues',
  urgent: PAGE_URGENT_SQL,
  in_sitemap: 'p_in_sitemap',
  requests: 'p_requests',
};
export const PAGE_CHANGES_FILTER_SQL: Readonly<Record<string, string>> = { url: 'c_url', dimension: 'c_dimension', field: 'c_field', severity: 'c_severity', before: 'c_before', after: 'c_after' };

/**
 * The latest facts of each page × dimension of the host, with what needs the
 * whole website or the period: `title_duplicate` (another URL of the host
 * has the same non-empty title), the window's bot requests (per URL and
 * dimension), search clicks and impressions (per URL, the days' latest
 * imports) and whether a sitemap recache named the URL in the window. Binds `{hostId}`, `{website}`, `{start}`, `{end}`, `{startDate}`,
 * `{endDate}` and the dimension map.
 */
export function pagesSource(): string {
  const requests =
    `SELECT url, dimension_id, count() AS n, countIf(${GOOGLEBOT_SQL}) AS google, maxIf(ts, ${GOOGLEBOT_SQL}) AS last_google FROM ${BOT_REQUESTS_TABLE} FINAL ` +
    'WHERE website = {website:String} AND ts >= {start:DateTime64(3)} AND ts < {end:DateTime64(3)} GROUP BY url, dimension_id';
  const search =
    `SELECT url, sum(clicks) AS clicks, sum(impressions) AS impressions FROM ${SEARCH_TABLES.page} FINAL ` +
    `WHERE website = {website:String} AND date >= {startDate:Date} AND date < {endDate:Date} AND ${latestImportSql('page')} GROUP BY url`;
  // What the site's sitemaps list, as far as we know it: the URLs a sitemap recache (the daemon's warm-up or the API's) named in the window.
  const sitemap =
    `SELECT url, 1 AS listed FROM ${RECACHE_RECEIPTS_TABLE} ` +
    "WHERE host_id = {hostId:UInt32} AND source = 'sitemap' AND requested_at >= {start:DateTime64(3)} AND requested_at < {end:DateTime64(3)} GROUP BY url";
  const titles = `SELECT title, uniqExact(url) AS urls FROM ${PAGES_TABLE} FINAL WHERE host_id = {hostId:UInt32} AND title != '' GROUP BY title`;
  const duplicate = `t.urls > 1 AND NOT hasAny(p.issues, ${ERROR_ISSUES_SQL})`;
  return (
    `SELECT p.url AS p_url, p.dimension_id AS p_dimension_id, p.dimension_name AS p_dimension, ` +
    'p.title AS p_title, p.description AS p_description, p.canonical AS p_canonical, arrayStringConcat(p.noindex_by, \', \') AS p_noindex, p.status_code AS p_status_code, ' +
    "p.word_count AS p_word_count, p.first_h1 AS p_h1, p.lang AS p_lang, arrayStringConcat(arrayDistinct(arrayConcat(p.json_ld_types, p.microdata_types)), ', ') AS p_structured_data, " +
    `p.images_without_alt AS p_images_without_alt, if(${duplicate}, arrayConcat(p.issues, ['title_duplicate']), p.issues) AS p_issues, p.critical_issues AS p_critical_issues, ` +
    'p.rendered_at AS p_rendered_at, r.n AS p_requests, r.google AS p_googlebot, r.last_google AS p_last_googlebot, s.clicks AS p_clicks, s.impressions AS p_impressions, m.listed AS p_in_sitemap ' +
    `FROM (SELECT *, ${DIMENSION_NAME_SQL} AS dimension_name FROM ${PAGES_TABLE} FINAL WHERE host_id = {hostId:UInt32}) AS p ` +
    `LEFT JOIN (${titles}) AS t ON t.title = p.title ` +
    `LEFT JOIN (${requests}) AS r ON r.url = p.url AND r.dimension_id = p.dimension_id ` +
    `LEFT JOIN (${search}) AS s ON s.url = p.url ` +
    `LEFT JOIN (${sitemap}) AS m ON m.url = p.url`
  );
}

/**
 * How the pages with each issue changed on each UTC day of a window, summed
 * from the window's first day they give the pages (URL × dimension) as of
 * the end of each day. A page's states are its day rows in
 * `page_critical_days` (the day's latest render) before the day of its
 * latest render, then its `pages` row from that day on, so a page not
 * rendered within the history's TTL still counts; each state lasts until
 * the next. A state adds 1 to its codes on its first day and takes 1 away
 * on the day the next begins; what happened before the window lands on its
 * first day (`{startDate}`), what happens from `{endDate}` on is left out.
 * Rows: `t` (epoch ms of the day), one count per severity (pages with an
 * issue of it: `{<severity>Codes}`), and `codes`, one count per code of
 * PAGE_ISSUE_CODES (bound as `{codes}`). Binds `{hostId}` too. Only
 * page-level codes are stored, so `title_duplicate` never counts here.
 */
export function issueHistorySql(): string {
  // Each state's severities and codes as bits, tested where the state is read: the sort and the edges below then carry
  // two integers instead of an array (ten times faster on a million day rows than testing the array at every edge).
  const bits =
    `${ISSUE_SEVERITIES.map((severity, i) => `if(hasAny(issues, {${severity}Codes:Array(String)}), ${2 ** i}, 0)`).join(' + ')} AS severity_bits, ` +
    `${PAGE_ISSUE_CODES.map((_, i) => `if(has(issues, {codes:Array(String)}[${i + 1}]), ${2 ** i}, 0)`).join(' + ')} AS code_bits`;
  const states =
    `SELECT url, dimension_id, day, 0 AS latest, ${bits} FROM ${PAGE_CRITICAL_DAYS_TABLE} FINAL WHERE host_id = {hostId:UInt32} AND day < {endDate:Date} ` +
    `UNION ALL SELECT url, dimension_id, toDate(rendered_at) AS day, 1 AS latest, ${bits} FROM ${PAGES_TABLE} FINAL WHERE host_id = {hostId:UInt32}`;
  // The latest render's own day row sorts before its `pages` row: a state of no length, which adds and takes away on the same day.
  const lasting =
    "SELECT day, leadInFrame(day, 1, toDate('2149-06-06')) OVER (PARTITION BY url, dimension_id ORDER BY day, latest ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS until, " +
    `severity_bits, code_bits FROM (${states})`;
  const edges =
    'SELECT greatest(edge.1, {startDate:Date}) AS at, edge.2 AS sign, severity_bits, code_bits ' +
    `FROM (${lasting}) ARRAY JOIN [(day, toInt8(1)), (until, toInt8(-1))] AS edge WHERE until > {startDate:Date} AND edge.1 < {endDate:Date}`;
  const severities = ISSUE_SEVERITIES.map((severity, i) => `sumIf(sign, bitTest(severity_bits, ${i})) AS ${severity}`).join(', ');
  const codes = PAGE_ISSUE_CODES.map((_, i) => `sumIf(sign, bitTest(code_bits, ${i}))`).join(', ');
  return `SELECT toUnixTimestamp(toDateTime(at, 'UTC')) * 1000 AS t, ${severities}, [${codes}] AS codes FROM (${edges}) GROUP BY at ORDER BY at`;
}

function changesSource(): string {
  return (
    `SELECT url AS c_url, dimension_id AS c_dimension_id, ${DIMENSION_NAME_SQL} AS c_dimension, day AS c_day, field AS c_field, before AS c_before, after AS c_after, ` +
    `severity AS c_severity, changed_at AS c_changed_at, renders AS c_renders FROM (${PAGE_CHANGES_MERGED_SQL})`
  );
}

/** A filter over the flat columns; `issue` is a membership test on the page's issue codes. */
function pagesFilterSql(filter: ResolvedFilter, params: Record<string, unknown>, index: number): string {
  if (filter.field !== 'issue') return filterSql(filter, PAGES_FILTER_SQL[filter.field], params, index);
  params[`f${index}`] = String(filter.val);
  const member = `has(p_issues, {f${index}:String})`;
  return filter.op === 'ne' ? `NOT ${member}` : member;
}

/** The parameters `pagesSource` and `PAGE_CHANGES_MERGED_SQL` bind, for a host, website and window (days touched by the window for the changes). */
export function pagesParams(site: { readonly websiteId: string; readonly hostId: number; readonly dimensions: readonly { readonly id: number; readonly name: string }[] }, window: { readonly start: Date; readonly end: Date }): Record<string, unknown> {
  return {
    website: site.websiteId,
    hostId: site.hostId,
    dimIds: site.dimensions.map((d) => d.id),
    dimNames: site.dimensions.map((d) => d.name),
    start: window.start,
    end: window.end,
    startDate: window.start.toISOString().slice(0, 10),
    endDate: window.end.toISOString().slice(0, 10),
  };
}

/** Count and page statements of a `pages` or `page_changes` query (`query.explorer` bound to the website's host). */
export function buildPagesSql(query: ResolvedQuery & { readonly explorer: PagesDef }, websiteId: string): ExplorerSql {
  const { explorer } = query;
  const params = pagesParams({ websiteId, hostId: explorer.hostId, dimensions: explorer.dimensions }, query.window);
  const mode = query.mode.key;
  switch (mode) {
    case 'pages': {
      const where = query.filters.map((f, i) => pagesFilterSql(f, params, i));
      const { select, order } = selectAndOrder(query, "concat(p_url, '|', toString(p_dimension_id))", [], params);
      const from = `FROM (${pagesSource()})${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
      return { countSql: `SELECT count() AS total ${from}`, pageSql: `SELECT ${select.join(', ')} ${from} ${order}`, params };
    }
    case 'page_changes': {
      // Rolling windows: the days the window touches, then the rows whose latest change falls within it.
      params.endDate = daysTouchedEnd(query.window.end);
      const where = ['c_changed_at >= {start:DateTime64(3)}', 'c_changed_at < {end:DateTime64(3)}', ...query.filters.map((f, i) => filterSql(f, PAGE_CHANGES_FILTER_SQL[f.field], params, i))];
      const { select, order } = selectAndOrder(query, "concat(c_url, '|', toString(c_dimension_id), '|', toString(c_day), '|', c_field)", [], params);
      const from = `FROM (${changesSource()})${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
      return { countSql: `SELECT count() AS total ${from}`, pageSql: `SELECT ${select.join(', ')} ${from} ${order}`, params };
    }
    case 'requests':
    case 'unique_pages':
    case 'comparison':
    case 'search_pages':
    case 'search_keywords':
    case 'renders':
    case 'reasons':
      throw new Error(`${mode} is not an SEO health mode`);
    default:
      return assertNever(mode);
  }
}
