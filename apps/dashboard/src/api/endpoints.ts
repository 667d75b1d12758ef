import { answerOf, publicApi, sessionCsrfToken } from './client';
import type {
  AlertDeliveriesQuery,
  AiCrawlersBody,
  BotCategoriesBody,
  CacheEntriesQueryBody,
  DiscoveryDocument,
  ExplorerFilterBody,
  ExplorerKey,
  ExportBody,
  FilterBody,
  ImportBody,
  ImportResult,
  InvalidateMatchingBody,
  Priority,
  QueryBody,
  QueryResult,
  ReceiptQuery,
  RendersDiscovery,
  RendersExportBody,
  RendersQueryBody,
  RendersTimeseriesBody,
  SeoInsightsBody,
  SignInBody,
  SitemapRecacheBody,
  SummaryBody,
  TimeseriesBody,
} from './types';

/**
 * Every endpoint the dashboard calls: the public API, nothing else, each
 * through the typed client (its path, parameters, body and answer checked
 * against the OpenAPI document). An answer the document types more loosely
 * than the API gives it (discovery, query rows, the import answer) is read as
 * the narrower type of types.ts, which is checked to fit the document's.
 */

const site = (website: string) => ({ path: { website } });
/** Reading, opening and ending the session: a 401 there is an answer (nobody signed in), not a lost session. */
const SESSION = { unauthenticatedIsAnswer: true };

/** A range's upper bound goes as the user typed it when it is not a number, so the API's refusal names its control (the document types `val2` as a number). */
const asTyped = <Body extends { filters?: ExplorerFilterBody[] }>(body: Body) => body as Omit<Body, 'filters'> & { filters?: FilterBody[] };

export const api = {
  session: {
    read: (signal?: AbortSignal) => answerOf(publicApi.GET('/api/session', { signal }), SESSION),
    open: (body: SignInBody) => answerOf(publicApi.POST('/api/session', { body }), SESSION),
    // The one operation whose document names its X-CSRF-Token (the client sends it on every change anyway).
    end: (): Promise<void> => answerOf(publicApi.DELETE('/api/session', { params: { header: { 'X-CSRF-Token': sessionCsrfToken() ?? '' } } }), SESSION),
  },
  websites: (signal?: AbortSignal) => answerOf(publicApi.GET('/api/websites', { signal })),
  explorer: {
    discover: (website: string, signal?: AbortSignal) => answerOf(publicApi.GET('/api/websites/{website}/data-explorer', { params: site(website), signal })) as Promise<DiscoveryDocument>,
    query: (website: string, explorerKey: ExplorerKey, body: QueryBody, signal?: AbortSignal) =>
      answerOf(
        publicApi.POST('/api/websites/{website}/data-explorer/{explorerKey}/query', {
          params: { path: { website, explorerKey } },
          body: asTyped(body),
          signal,
        }),
      ) as Promise<QueryResult>,
  },
  exports: {
    start: (website: string, explorerKey: ExplorerKey, body: ExportBody) =>
      answerOf(publicApi.POST('/api/websites/{website}/data-explorer/{explorerKey}/export', { params: { path: { website, explorerKey } }, body: asTyped(body) })),
    status: (website: string, exportId: number, signal?: AbortSignal) =>
      answerOf(publicApi.GET('/api/websites/{website}/data-explorer/export/{exportId}/status', { params: { path: { website, exportId } }, signal })),
    history: (website: string, signal?: AbortSignal) => answerOf(publicApi.GET('/api/websites/{website}/data-explorer/exports', { params: site(website), signal })),
  },
  cache: {
    recache: (website: string, urls: string[], priority: Priority) => answerOf(publicApi.POST('/api/websites/{website}/cache/recache', { params: site(website), body: { urls, priority } })),
    invalidate: (website: string, urls: string[]) => answerOf(publicApi.POST('/api/websites/{website}/cache/invalidate', { params: site(website), body: { urls } })),
    queue: (website: string, signal?: AbortSignal) => answerOf(publicApi.GET('/api/websites/{website}/cache/queue', { params: site(website), signal })),
    lookup: (website: string, url: string, signal?: AbortSignal) =>
      answerOf(publicApi.GET('/api/websites/{website}/cache/entries', { params: { path: { website }, query: { url } }, signal })),
    entries: (website: string, body: CacheEntriesQueryBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/cache/entries/query', { params: site(website), body, signal })),
    invalidateMatching: (website: string, body: InvalidateMatchingBody) => answerOf(publicApi.POST('/api/websites/{website}/cache/entries/invalidate', { params: site(website), body })),
    receipt: (website: string, receiptId: string, query: ReceiptQuery = {}, signal?: AbortSignal) =>
      answerOf(publicApi.GET('/api/websites/{website}/cache/receipts/{receiptId}', { params: { path: { website, receiptId }, query }, signal })),
    recacheSitemap: (website: string, body: SitemapRecacheBody) => answerOf(publicApi.POST('/api/websites/{website}/cache/recache-sitemap', { params: site(website), body })),
  },
  renders: {
    discover: (website: string, signal?: AbortSignal) => answerOf(publicApi.GET('/api/websites/{website}/renders', { params: site(website), signal })) as Promise<RendersDiscovery>,
    query: (website: string, body: RendersQueryBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/renders/query', { params: site(website), body, signal })) as Promise<QueryResult>,
    timeseries: (website: string, body: RendersTimeseriesBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/renders/timeseries', { params: site(website), body, signal })),
    /** Through the account's one export slot, shared with the explorers (409 EXPORT_SLOT_BUSY); status at the explorers' status path. */
    export: (website: string, body: RendersExportBody) => answerOf(publicApi.POST('/api/websites/{website}/renders/export', { params: site(website), body })),
  },
  alerts: {
    deliveries: (website: string, query: AlertDeliveriesQuery = {}, signal?: AbortSignal) =>
      answerOf(publicApi.GET('/api/websites/{website}/alerts/deliveries', { params: { path: { website }, query }, signal })),
  },
  insights: {
    summary: (website: string, body: SummaryBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/insights/summary', { params: site(website), body, signal })),
    timeseries: (website: string, body: TimeseriesBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/insights/timeseries', { params: site(website), body, signal })),
    botCategories: (website: string, body: BotCategoriesBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/insights/bot-categories', { params: site(website), body, signal })),
    aiCrawlers: (website: string, body: AiCrawlersBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/insights/ai-crawlers', { params: site(website), body, signal })),
    seo: (website: string, body: SeoInsightsBody, signal?: AbortSignal) => answerOf(publicApi.POST('/api/websites/{website}/insights/seo', { params: site(website), body, signal })),
  },
  searchPerformance: {
    import: (website: string, body: ImportBody) => answerOf(publicApi.POST('/api/websites/{website}/search-performance/import', { params: site(website), body })) as Promise<ImportResult>,
  },
};

/** The API's limits on cache operations (docs/public-api.md, "Cache operations"); the API enforces them anyway. */
export const CACHE_LIMITS = { recache: { high: 100, normal: 1000 }, invalidate: 1000 } as const;
