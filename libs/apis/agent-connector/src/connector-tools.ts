import { componentSchema, JsonSchema, OpenApiDocument, withoutProperties, withProperties } from './openapi-schemas';
import { bodyOf, pathInteger, pathSegment } from './tool-arguments';
import { refusalOf, toolRefusal, toolSuccess } from './tool-result';
import { DISCOVERY_OUTPUT, EXPLORER_ARGUMENT, EXPORT_ID_ARGUMENT, QUERY_OUTPUT, WEBSITE_ARGUMENT } from './tool-schemas';
import { drainPhrase, nextPageOf, querySummary, seriesDigest, withoutRowIds } from './tool-summaries';
import { COMP_CATEGORY_SCHEMA, COMP_PERIOD_SCHEMA, FILTERS_DESCRIPTION, MODE_SCHEMA, PERIOD_SCHEMA } from './explorer-argument-hints';
import { listAlertDeliveries } from './alert-tools';
import { queryRenders } from './render-tools';
import { invalidateMatching, lookupCache } from './cache-entry-tools';
import { call, ConnectorTool, DEFAULT_TOOL_ROWS, guarded, hintFor, object, ok, readOnly, websiteOnly, websitePath } from './tool-kit';
import { recacheSitemap } from './sitemap-tools';
import { getRecacheReceipt } from './receipt-tools';
import { getAiCrawlers, getBotCategories } from './reader-tools';
import { getPageChanges, listCriticalPagesByClicks, listPagesTurnedNoindex } from './seo-tools';

export { DEFAULT_TOOL_ROWS, type ConnectorTool, type ToolAnnotations } from './tool-kit';

const listWebsites: ConnectorTool = {
  name: 'list_websites',
  description:
    "The websites this token can see, with the user's role on each (`readonly` reads; `manager` may also recache and invalidate), whether the Data Explorer is on (platformModule), the hostnames and the edge URL. Call this first: every other tool takes a `website` id from here.",
  annotations: readOnly('List websites'),
  inputSchema: () => ({ type: 'object', properties: {} }),
  outputSchema: (document) => componentSchema(document, 'WebsitesDto'),
  run: guarded((api) =>
    call(api, { method: 'GET', path: '/api/websites' }, (body) => {
      const websites = (body.websites as { id: string; role: string; platformModule: boolean }[]) ?? [];
      const list = websites.map((w) => `${w.id} (${w.role}${w.platformModule ? '' : ', no Data Explorer'})`).join(', ');
      return toolSuccess(`${websites.length} website(s): ${list || 'none'}.`, body);
    }),
  ),
};

const describeExplorers: ConnectorTool = {
  name: 'describe_explorers',
  description:
    "Discovery for the Data Explorer of a website: each explorer's modes, columns (key, data type, sortable), filters (field, type, operators, enum options), default columns/sort/period, period presets and the longest range, and the account's limits (perPageMax: rows per page at most; exportRowCap: rows per export at most). Read it before query_explorer or start_export. Pass `explorer` to get one explorer only.",
  annotations: readOnly('Describe explorers'),
  inputSchema: () => ({
    type: 'object',
    properties: { website: WEBSITE_ARGUMENT, explorer: { ...EXPLORER_ARGUMENT, description: `${EXPLORER_ARGUMENT.description as string} Optional: omit for all explorers.` } },
    required: ['website'],
  }),
  outputSchema: () => DISCOVERY_OUTPUT,
  run: guarded((api, args) =>
    call(api, { method: 'GET', path: `${websitePath(args)}/data-explorer` }, (body) => {
      const all = (body.explorers as { key: string; modes: { key: string }[] }[]) ?? [];
      const explorers = typeof args.explorer === 'string' ? all.filter((e) => e.key === args.explorer) : all;
      if (typeof args.explorer === 'string' && explorers.length === 0) {
        return toolRefusal({ status: 404, code: 'NOT_FOUND', message: `unknown explorer ${args.explorer}; known: ${all.map((e) => e.key).join(', ')}`, field: 'explorer' });
      }
      const summary = explorers.map((e) => `${e.key} (modes: ${e.modes.map((m) => m.key).join(', ')})`).join('; ');
      return toolSuccess(`Explorers: ${summary}. Limits: ${JSON.stringify(body.limits)} (query_explorer returns ${DEFAULT_TOOL_ROWS} rows per page unless perPage says otherwise).`, { explorers, limits: body.limits });
    }),
  ),
};

/** Descriptions (and enums) the catalog gives, laid over the API's own property schemas: its constraints stay, the model learns the keys. */
const QUERY_ARGUMENT_HINTS: Record<string, JsonSchema> = {
  mode: MODE_SCHEMA,
  period: PERIOD_SCHEMA,
  compPeriod: COMP_PERIOD_SCHEMA,
  compCategory: COMP_CATEGORY_SCHEMA,
  filters: { description: FILTERS_DESCRIPTION },
};

const queryExplorer: ConnectorTool = {
  name: 'query_explorer',
  description:
    'Runs one Data Explorer query and returns one page of rows. `events` answers bot traffic: mode `requests` (one row per bot request), `unique_pages` (one row per URL: requests, bots, serve times, hit rate, last seen), `comparison` (per URL, this period against `compPeriod`, with `compCategory` new/returning/lost). `search-pages` and `search-keywords` answer search clicks, impressions, ctr (0..1) and average position per page or per query. ' +
    'Columns, filters (field + op + val, val2 for `between`), sortable columns and periods come from describe_explorers. Times are UTC; serve_time in ms, snapshot_age in seconds, bytes in bytes. ' +
    'Who read: bot_category (search, ai_search, ai_assistant, ai_training, social, seo_tool, monitoring, other), bot_operator (e.g. OpenAI), verified (yes/no/unknown: the bot is who it claims), robots_allowed (yes/no/unknown: robots.txt allowed it that URL), format (html/markdown). ' +
    `Paging: ${DEFAULT_TOOL_ROWS} rows by default (perPage up to the account's perPageMax, 500 at most); the result gives meta.total, meta.totalPages and nextPage: call again with the same arguments and page=nextPage for more. A page past the last is refused.`,
  annotations: readOnly('Query the Data Explorer'),
  inputSchema: (document) =>
    withProperties(componentSchema(document, 'QueryExplorerDto'), { website: WEBSITE_ARGUMENT, explorer: EXPLORER_ARGUMENT }, ['website', 'explorer'], {
      ...QUERY_ARGUMENT_HINTS,
      perPage: { description: `Rows per page; default ${DEFAULT_TOOL_ROWS} here (the API's maximum is the account's perPageMax from describe_explorers)` },
      page: { description: '1-based page; default 1. Use the nextPage of the previous result, with the same other arguments' },
    }),
  outputSchema: () => QUERY_OUTPUT,
  run: guarded((api, args) => {
    const body = { perPage: DEFAULT_TOOL_ROWS, ...bodyOf(args, ['website', 'explorer']) };
    return call(api, { method: 'POST', path: `${websitePath(args)}/data-explorer/${pathSegment(args, 'explorer')}/query`, body }, (answer) => {
      const rows = withoutRowIds(Array.isArray(answer.data) ? answer.data : []);
      const meta = object(answer.meta);
      const nextPage = nextPageOf(meta);
      return toolSuccess(querySummary(rows.length, meta, nextPage), { rows, meta, nextPage });
    });
  }),
};

const TIMESERIES_ONLY = ['metric', 'interval', 'splitBy'];

const getInsights: ConnectorTool = {
  name: 'get_insights',
  description:
    "The dashboard's overview of a website's bot traffic: a summary of the period against the comparison period (requests, distinct pages, hit rate 0..1, serve time p50/p95 in ms, share of 4xx/5xx 0..1, failed renders, new and lost pages) and, for `metric`, a time series (one point per hour or day, UTC bucket starts; `splitBy` gives one series per bot family, cache status, status class or dimension). " +
    'Search metrics (clicks, impressions, ctr, position) are daily and not split. Default metric `requests`, default period `30d`; filters are the `events` explorer\'s.',
  annotations: readOnly('Get insights'),
  // The timeseries body holds the summary's fields too; metric is optional here (default `requests`).
  inputSchema: (document) => {
    const timeseries = componentSchema(document, 'InsightsTimeseriesDto');
    const metric = object(object(timeseries.properties).metric);
    return withProperties(withoutProperties(timeseries, ['metric']), { website: WEBSITE_ARGUMENT, metric: { ...metric, description: `${String(metric.description)}. Default \`requests\`` } }, ['website']);
  },
  outputSchema: (document) => ({
    type: 'object',
    properties: { summary: componentSchema(document, 'InsightsSummaryAnswerDto'), timeseries: componentSchema(document, 'InsightsTimeseriesAnswerDto') },
    required: ['summary', 'timeseries'],
  }),
  run: guarded(async (api, args) => {
    const path = `${websitePath(args)}/insights`;
    const body = bodyOf(args, ['website']);
    const [summary, timeseries] = await Promise.all([
      api({ method: 'POST', path: `${path}/summary`, body: bodyOf(body, TIMESERIES_ONLY) }),
      api({ method: 'POST', path: `${path}/timeseries`, body: { metric: 'requests', ...body } }),
    ]);
    const refused = [timeseries, summary].find((answer) => !ok(answer));
    if (refused) {
      const refusal = refusalOf(refused);
      return toolRefusal(refusal, hintFor(refusal.code, refusal));
    }
    const s = object(summary.body);
    const current = object(object(s.data).current);
    const previous = object(object(s.data).previous);
    const meta = object(object(timeseries.body).meta);
    const series = object(object(timeseries.body).data).series;
    const seriesList = Array.isArray(series) ? series : [];
    return toolSuccess(
      `Period ${object(s.meta).period}: ${current.requests} requests on ${current.pages} pages (previous ${previous.requests} on ${previous.pages}), hit rate ${current.hitRate}, p95 ${current.serveTimeP95Ms} ms, ${object(s.data).newPages} new and ${object(s.data).lostPages} lost pages. ` +
        `${meta.metric} per ${meta.interval}, ${seriesList.length} series: ${seriesDigest(seriesList)}.`,
      { summary: s, timeseries: object(timeseries.body) },
    );
  }),
};

const EXPORT_STATES = (document: OpenApiDocument): JsonSchema => ({
  anyOf: ['RunningExportDto', 'CompletedExportDto', 'FailedExportDto'].map((name) => componentSchema(document, name)),
});

function exportSummary(record: Record<string, unknown>): string {
  switch (record.status) {
    case 'completed':
      return `Export ${record.exportId} completed: ${record.rowCount} rows, ${record.sizeBytes} bytes; download (no token needed) until ${record.expiresAt}: ${record.downloadUrl}`;
    case 'running':
      return `Export ${record.exportId} is still running: call get_export_status with exportId ${record.exportId} in a few seconds.`;
    default:
      return `Export ${record.exportId} failed: ${record.error} ${record.errorMessage ?? ''}`.trim();
  }
}

const startExport: ConnectorTool = {
  name: 'start_export',
  description:
    "Starts a CSV export of a Data Explorer query (same explorer, mode, columns, filters, period and sort as query_explorer, no paging; maxRows up to the account's exportRowCap). Waits up to waitSeconds (default 20, at most 30) and returns the finished export with a signed download link, or `running` with its exportId to poll with get_export_status. " +
    "The account has ONE export slot shared with the API and the dashboard: while another export runs, this is refused with EXPORT_SLOT_BUSY naming the holder's exportId. Sending the same export again while it runs rejoins it.",
  annotations: { title: 'Start a CSV export', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  inputSchema: (document) => withProperties(componentSchema(document, 'StartExportDto'), { website: WEBSITE_ARGUMENT, explorer: EXPLORER_ARGUMENT }, ['website', 'explorer'], QUERY_ARGUMENT_HINTS),
  outputSchema: (document) => ({ type: 'object', properties: { export: EXPORT_STATES(document) }, required: ['export'] }),
  run: guarded((api, args) =>
    call(api, { method: 'POST', path: `${websitePath(args)}/data-explorer/${pathSegment(args, 'explorer')}/export`, body: bodyOf(args, ['website', 'explorer']) }, (record) =>
      toolSuccess(exportSummary(record), { export: record }),
    ),
  ),
};

const getExportStatus: ConnectorTool = {
  name: 'get_export_status',
  description:
    "The state of one of the user's exports on a website (running, completed with a fresh signed download link, or failed), by exportId; without exportId, every export of the user on the website, newest first. Only the token's own user's exports are visible.",
  annotations: readOnly('Get export status'),
  inputSchema: () => ({ type: 'object', properties: { website: WEBSITE_ARGUMENT, exportId: { ...EXPORT_ID_ARGUMENT, description: `${EXPORT_ID_ARGUMENT.description as string} Omit to list the user's exports.` } }, required: ['website'] }),
  outputSchema: (document) => ({
    type: 'object',
    properties: { export: EXPORT_STATES(document), exports: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Each shaped as `export`, newest first' } },
  }),
  run: guarded((api, args) => {
    if (args.exportId === undefined) {
      return call(api, { method: 'GET', path: `${websitePath(args)}/data-explorer/exports` }, (body) => {
        const exports = (body.exports as Record<string, unknown>[]) ?? [];
        return toolSuccess(`${exports.length} export(s)${exports.length ? `; newest: ${exportSummary(exports[0])}` : ''}.`, { exports });
      });
    }
    return call(api, { method: 'GET', path: `${websitePath(args)}/data-explorer/export/${pathInteger(args, 'exportId')}/status` }, (record) => toolSuccess(exportSummary(record), { export: record }));
  }),
};

const recacheUrls: ConnectorTool = {
  name: 'recache_urls',
  description:
    "Queues pages for re-rendering so bots get fresh snapshots (manager role). Absolute URLs on the website's host; up to 100 with priority `high` (rendered ahead of the queue), 1000 with `normal` (default). Returns the distinct URLs taken, the render jobs queued (URLs × cache dimensions) and a `receiptId`: get_recache_receipt follows each job to stored, kept or failed. Repeating it queues nothing new for URLs still queued.",
  annotations: { title: 'Recache URLs', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  inputSchema: (document) => withProperties(componentSchema(document, 'RecacheWebsiteDto'), { website: WEBSITE_ARGUMENT }, ['website']),
  outputSchema: (document) => componentSchema(document, 'RecacheWebsiteResponseDto'),
  run: guarded((api, args) =>
    call(api, { method: 'POST', path: `${websitePath(args)}/cache/recache`, body: bodyOf(args, ['website']) }, (body) =>
      toolSuccess(`${body.urlsAccepted} URL(s) accepted, ${body.entriesEnqueued} render job(s) queued; receipt ${body.receiptId} (get_recache_receipt follows it).`, body),
    ),
  ),
};

const invalidateUrls: ConnectorTool = {
  name: 'invalidate_urls',
  description:
    "Drops the cached snapshots of pages (manager role): until they are rendered again, bots get the page from the origin or a fresh render. Absolute URLs on the website's host, 1 to 1000. Returns the cache entries dropped (URLs × dimensions). Prefer recache_urls to refresh a page; invalidate when a snapshot must not be served any more.",
  annotations: { title: 'Invalidate cached URLs', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  inputSchema: (document) => withProperties(componentSchema(document, 'InvalidateWebsiteCacheDto'), { website: WEBSITE_ARGUMENT }, ['website']),
  outputSchema: (document) => componentSchema(document, 'InvalidateWebsiteCacheResponseDto'),
  run: guarded((api, args) =>
    call(api, { method: 'POST', path: `${websitePath(args)}/cache/invalidate`, body: bodyOf(args, ['website']) }, (body) =>
      toolSuccess(`${body.urlsAccepted} URL(s) accepted, ${body.entriesInvalidated} cache entr(ies) dropped.`, body),
    ),
  ),
};

const getQueueStatus: ConnectorTool = {
  name: 'get_queue_status',
  description:
    "The render queues of the website's host (shared by every website on that host): jobs queued and due now, high and normal priority, whether the operator paused draining (until when, UTC), and an estimate of the time each queue takes to drain (seconds, from the last ten minutes' completion rate plus any pause left; null while nothing completed recently). Use it after recache_urls to see the work waiting.",
  annotations: readOnly('Get render queue status'),
  inputSchema: websiteOnly,
  outputSchema: (document) => componentSchema(document, 'QueueStatusDto'),
  run: guarded((api, args) =>
    call(api, { method: 'GET', path: `${websitePath(args)}/cache/queue` }, (body) => {
      const queues = object(body.queues);
      const high = object(queues.high);
      const normal = object(queues.normal);
      const pause = body.paused ? `paused until ${body.pausedUntil}` : 'draining';
      const estimate = object(body.drainEstimate);
      const drain = (queue: unknown) => drainPhrase(object(queue));
      return toolSuccess(
        `Host ${body.hostId}: high ${high.total} queued (${high.due} due), normal ${normal.total} queued (${normal.due} due); ${pause}. Estimated drain: high ${drain(estimate.high)}, normal ${drain(estimate.normal)}.`,
        body,
      );
    }),
  ),
};

/** Every tool, in the order clients list them. */
export const CONNECTOR_TOOLS: readonly ConnectorTool[] = [listWebsites, describeExplorers, queryExplorer, getInsights, getBotCategories, getAiCrawlers, listPagesTurnedNoindex, getPageChanges, listCriticalPagesByClicks, startExport, getExportStatus, recacheUrls, invalidateUrls, getQueueStatus, queryRenders, lookupCache, invalidateMatching, recacheSitemap, getRecacheReceipt, listAlertDeliveries];
