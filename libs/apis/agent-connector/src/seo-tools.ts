import { ISSUE_CATALOG, type IssueCode } from '@bpc/domain';
import type { ApiAnswer } from './api-client';
import type { JsonSchema } from './openapi-schemas';
import { ArgumentRefusal, refusalOf, toolRefusal, toolSuccess, type ToolResult } from './tool-result';
import { QUERY_OUTPUT, WEBSITE_ARGUMENT } from './tool-schemas';
import { nextPageOf, withoutRowIds } from './tool-summaries';
import type { ToolArguments } from './tool-arguments';
import { ConnectorTool, DEFAULT_TOOL_ROWS, guarded, hintFor, object, ok, readOnly, websitePath } from './tool-kit';

/**
 * SEO health for a model (docs/seo-health.md): three questions answered from
 * the `pages` and `page_changes` explorers through the public API, so the
 * token's tenancy, roles, rate limit and validation are the API's own. Each
 * tool fixes the explorer, filters and sort its question needs and takes
 * only what varies (the period, a page, paging).
 */

type Row = Record<string, unknown>;

const PAGING: Record<string, JsonSchema> = {
  perPage: { type: 'integer', minimum: 1, maximum: 500, description: `Rows per page; default ${DEFAULT_TOOL_ROWS} (at most the account's perPageMax)` },
  page: { type: 'integer', minimum: 1, description: '1-based page; default 1. Use the nextPage of the previous result, with the same other arguments' },
};
const CHANGES_PERIOD: JsonSchema = {
  type: 'string',
  description: 'Rolling window, UTC: `24h`, `7d` (default: this week), `14d`, `28d`, `30d`, `90d`, or `YYYY-MM-DD,YYYY-MM-DD` (both days included, at most 365 days)',
};
const PAGES_PERIOD: JsonSchema = {
  type: 'string',
  description: 'Whole days, UTC, for the clicks, impressions and bot requests (the issues are the latest render\'s whatever the period): `7d`, `14d`, `28d` (default), `30d`, `90d`, or `YYYY-MM-DD,YYYY-MM-DD`',
};

/** The answer as the tool's result, or the API's refusal with its hint. */
function resultOf(answer: ApiAnswer, shape: (body: Row) => ToolResult): ToolResult {
  return ok(answer) ? shape(object(answer.body)) : refusalResult(answer);
}

function refusalResult(answer: ApiAnswer): ToolResult {
  const refusal = refusalOf(answer);
  return toolRefusal(refusal, hintFor(refusal.code, refusal));
}

/** An explorer query's page as the tool's structured content: rows without the dashboard's row keys, the API's meta, the next page. */
function pageOf(body: Row): { rows: Row[]; meta: Row; nextPage: number | null } {
  const meta = object(body.meta);
  return { rows: withoutRowIds(Array.isArray(body.data) ? body.data : []), meta, nextPage: nextPageOf(meta) };
}

const paging = (args: ToolArguments) => ({ perPage: args.perPage ?? DEFAULT_TOOL_ROWS, ...(args.page === undefined ? {} : { page: args.page }) });
const period = (args: ToolArguments) => (args.period === undefined ? {} : { period: args.period });
const more = (tool: string, nextPage: number | null) => (nextPage === null ? '' : ` More: call ${tool} again with the same arguments and page=${nextPage}.`);
const distinct = (rows: readonly Row[], key: string) => [...new Set(rows.map((row) => String(row[key])))];
const LISTED = 10;
const listed = (values: readonly string[]) => values.slice(0, LISTED).join(', ') + (values.length > LISTED ? ` and ${values.length - LISTED} more` : '');

export const listPagesTurnedNoindex: ConnectorTool = {
  name: 'list_pages_turned_noindex',
  description:
    "Which pages turned noindex in a period (\"which pages turned noindex this week\"): the website's pages whose rendered page started telling bots not to index it (robots meta or X-Robots-Tag, for every bot or for Googlebot or Bingbot) between two renders, newest first. " +
    'One row per URL × cache dimension × UTC day (changes are coalesced per day: `before` is the day\'s first value, `after` its latest), with `changed_at` (UTC) and `renders`. Default period `7d`. ' +
    "A later day may have turned it back: get_page_changes on a URL shows its history and its current facts. Paging: 50 rows by default, nextPage for more.",
  annotations: readOnly('List pages that turned noindex'),
  inputSchema: () => ({ type: 'object', properties: { website: WEBSITE_ARGUMENT, period: CHANGES_PERIOD, ...PAGING }, required: ['website'] }),
  outputSchema: () => QUERY_OUTPUT,
  run: guarded(async (api, args) => {
    const body = {
      columns: ['url', 'dimension', 'changed_at', 'before', 'after', 'renders'],
      filters: [{ field: 'field', op: 'eq', val: 'noindex' }, { field: 'before', op: 'equals', val: 'false' }, { field: 'after', op: 'equals', val: 'true' }],
      sort: 'changed_at',
      sortDir: 'desc',
      ...period(args),
      ...paging(args),
    };
    const answer = await api({ method: 'POST', path: `${websitePath(args)}/data-explorer/page_changes/query`, body });
    return resultOf(answer, (result) => {
      const page = pageOf(result);
      const window = object(page.meta.window);
      const during = `between ${String(window.start)} and ${String(window.end)}`;
      const summary =
        Number(page.meta.total) === 0
          ? `No page turned noindex ${during}.`
          : `${String(page.meta.total)} noindex turn(s) (URL × dimension × day) ${during}; on this page ${distinct(page.rows, 'url').length} URL(s), newest first: ${listed(distinct(page.rows, 'url'))}.${more('list_pages_turned_noindex', page.nextPage)}`;
      return toolSuccess(summary, page);
    });
  }),
};

/** RE2 metacharacters a path must not bring into a pattern. */
const escapeRegex = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

/** A page argument as the explorers' `url` filter: an absolute URL exactly, or a path on any of the website's hostnames with any query string. */
export function pageFilter(args: ToolArguments): { field: 'url'; op: 'equals' | 'regex'; val: string } {
  const value = args.url;
  if (typeof value !== 'string' || value.trim() === '') throw new ArgumentRefusal('url', 'url is required: an absolute URL (https://www.example.com/pricing) or a path (/pricing)');
  const url = value.trim();
  if (/^https?:\/\//i.test(url)) return { field: 'url', op: 'equals', val: url };
  if (!url.startsWith('/') || url.length > 400 || /[\s#?]/.test(url)) throw new ArgumentRefusal('url', 'url must be an absolute http(s) URL or a path starting with / (no query string, spaces or fragment), at most 400 characters');
  return { field: 'url', op: 'regex', val: `^https?://[^/]+${escapeRegex(url)}(\\?.*)?$` };
}

function changeLine(row: Row): string {
  return `${String(row.changed_at).slice(0, 16)} ${String(row.dimension)} ${String(row.field)}: ${JSON.stringify(row.before)} → ${JSON.stringify(row.after)} (${String(row.severity)})`;
}

function currentLine(row: Row): string {
  const noindex = row.noindex ? `noindex (${String(row.noindex)})` : 'indexable';
  return `${String(row.url)} ${String(row.dimension)}: status ${String(row.status_code)}, ${noindex}, title ${JSON.stringify(row.title)}, issues ${String(row.issues) || 'none'}`;
}

export const getPageChanges: ConnectorTool = {
  name: 'get_page_changes',
  description:
    'What changed for bots on one page ("what changed on /pricing"): each change between two renders of the page in the period (field: noindex, status_code, canonical, structured_data, word_count, title, description, h1, nofollow, lang; before, after, severity critical/warning/notice), newest first, and what the page says now (its latest render: status, noindex, title, canonical, words, issue codes). ' +
    '`url` is an absolute URL, or a path such as `/pricing` (every URL of the website with that path, any query string). Changes are coalesced per URL × dimension × field × UTC day (`before` the day\'s first value, `after` its latest). Default period `30d`. Paging (of the changes): 50 rows by default, nextPage for more.',
  annotations: readOnly('Get the changes of a page'),
  inputSchema: () => ({
    type: 'object',
    properties: {
      website: WEBSITE_ARGUMENT,
      url: { type: 'string', maxLength: 2048, description: 'An absolute URL (`https://www.example.com/pricing`) or a path (`/pricing`)' },
      period: { ...CHANGES_PERIOD, description: String(CHANGES_PERIOD.description).replace('`7d` (default: this week)', '`7d`').replace('`30d`', '`30d` (default)') },
      ...PAGING,
    },
    required: ['website', 'url'],
  }),
  outputSchema: () => ({
    type: 'object',
    properties: {
      ...(QUERY_OUTPUT.properties as JsonSchema),
      current: { type: 'array', items: { type: 'object', additionalProperties: true }, description: "The page's latest facts per URL × dimension (the `pages` explorer's rows, at most 20)" },
    },
    required: ['rows', 'meta', 'nextPage', 'current'],
  }),
  run: guarded(async (api, args) => {
    const filter = pageFilter(args);
    const path = `${websitePath(args)}/data-explorer`;
    const [changes, pages] = await Promise.all([
      api({ method: 'POST', path: `${path}/page_changes/query`, body: { columns: ['url', 'dimension', 'changed_at', 'field', 'before', 'after', 'severity', 'renders'], filters: [filter], sort: 'changed_at', sortDir: 'desc', period: args.period ?? '30d', ...paging(args) } }),
      api({ method: 'POST', path: `${path}/pages/query`, body: { columns: ['url', 'dimension', 'title', 'canonical', 'noindex', 'status_code', 'word_count', 'issues', 'critical_issues', 'last_rendered_at'], filters: [filter], sort: 'url', sortDir: 'asc', perPage: 20 } }),
    ]);
    const refused = [changes, pages].find((answer) => !ok(answer));
    if (refused) return refusalResult(refused);
    const page = pageOf(object(changes.body));
    const current = pageOf(object(pages.body)).rows;
    const now = current.length === 0 ? 'No render of it has facts yet.' : `Now: ${current.map(currentLine).join('; ')}.`;
    const window = object(page.meta.window);
    const history =
      Number(page.meta.total) === 0
        ? `No change between ${String(window.start)} and ${String(window.end)}.`
        : `${String(page.meta.total)} change(s) between ${String(window.start)} and ${String(window.end)}, newest first: ${page.rows.slice(0, LISTED).map(changeLine).join('; ')}${page.rows.length > LISTED ? '; …' : ''}.${more('get_page_changes', page.nextPage)}`;
    return toolSuccess(`${history} ${now}`, { ...page, current });
  }),
};

const isCritical = (code: string) => code in ISSUE_CATALOG && ISSUE_CATALOG[code as IssueCode].severity === 'critical';

/** Per critical issue code, the distinct URLs of the rows and their clicks and impressions (a URL's search figures repeat on each of its dimensions). */
export function criticalIssueCosts(rows: readonly Row[]): { code: string; urls: number; clicks: number; impressions: number }[] {
  const byCode = new Map<string, Map<string, { clicks: number; impressions: number }>>();
  for (const row of rows) {
    for (const code of String(row.issues ?? '').split(',').map((c) => c.trim()).filter(isCritical)) {
      const urls = byCode.get(code) ?? new Map();
      urls.set(String(row.url), { clicks: Number(row.clicks) || 0, impressions: Number(row.impressions) || 0 });
      byCode.set(code, urls);
    }
  }
  return [...byCode]
    .map(([code, urls]) => ({ code, urls: urls.size, clicks: [...urls.values()].reduce((n, u) => n + u.clicks, 0), impressions: [...urls.values()].reduce((n, u) => n + u.impressions, 0) }))
    .sort((a, b) => b.clicks - a.clicks || b.impressions - a.impressions || a.code.localeCompare(b.code));
}

export const listCriticalPagesByClicks: ConnectorTool = {
  name: 'list_critical_pages_by_clicks',
  description:
    'Which critical SEO issues cost clicks ("which critical issues cost clicks"): pages whose latest render has at least one critical issue (noindex, status_4xx, status_5xx, soft_404), most search clicks in the period first (or `orderBy: "impressions"`), with their issue codes, `urgent` (1: noindex, yet bots requested it or a sitemap recache rendered it), bot requests, clicks and impressions. ' +
    'One row per URL × cache dimension (a URL\'s clicks and impressions are the same on each of its dimensions). The summary sums clicks and impressions per critical issue over the rows returned. Default period `28d` (whole days, today left out). Paging: 50 rows by default, nextPage for more.',
  annotations: readOnly('List pages with critical issues by clicks'),
  inputSchema: () => ({
    type: 'object',
    properties: { website: WEBSITE_ARGUMENT, period: PAGES_PERIOD, orderBy: { type: 'string', enum: ['clicks', 'impressions'], description: 'Most clicks (default) or most impressions first' }, ...PAGING },
    required: ['website'],
  }),
  outputSchema: () => QUERY_OUTPUT,
  run: guarded(async (api, args) => {
    if (args.orderBy !== undefined && args.orderBy !== 'clicks' && args.orderBy !== 'impressions') throw new ArgumentRefusal('orderBy', 'orderBy must be clicks or impressions');
    const sort = (args.orderBy as string | undefined) ?? 'clicks';
    const body = {
      columns: ['url', 'dimension', 'title', 'issues', 'critical_issues', 'urgent', 'requests', 'clicks', 'impressions'],
      filters: [{ field: 'critical_issues', op: 'gt', val: 0 }],
      sort,
      sortDir: 'desc',
      ...period(args),
      ...paging(args),
    };
    const answer = await api({ method: 'POST', path: `${websitePath(args)}/data-explorer/pages/query`, body });
    return resultOf(answer, (result) => {
      const page = pageOf(result);
      const window = object(page.meta.window);
      const costs = criticalIssueCosts(page.rows);
      const summary =
        Number(page.meta.total) === 0
          ? 'No page has a critical issue.'
          : `${String(page.meta.total)} page(s) (URL × dimension) with critical issues; search ${String(window.start).slice(0, 10)} to ${String(window.end).slice(0, 10)} (end excluded), by ${sort}. ` +
            `On this page: ${costs.map((c) => `${c.code} ${c.urls} URL(s), ${c.clicks} clicks, ${c.impressions} impressions`).join('; ')}. ` +
            `Top: ${page.rows.slice(0, 5).map((row) => `${String(row.url)} (${String(row.issues)}) ${String(row.clicks)} clicks`).join('; ')}.${more('list_critical_pages_by_clicks', page.nextPage)}`;
      return toolSuccess(summary, page);
    });
  }),
};
