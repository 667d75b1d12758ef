import { apiRequest } from './client';
import type {
  AlertDeliveriesPage,
  AlertDelivery,
  CacheEntriesPage,
  CacheEntriesQueryBody,
  CacheLookupResult,
  DiscoveryDocument,
  ExportBody,
  ExportRecord,
  ImportBody,
  ImportResult,
  InvalidateAccepted,
  InvalidateMatchingBody,
  InvalidateMatchingResult,
  Priority,
  QueryBody,
  QueryResult,
  QueueStatus,
  RecacheAccepted,
  Receipt,
  ReceiptState,
  RendersDiscovery,
  RendersTimeseriesBody,
  RendersTimeseriesResult,
  SessionView,
  SignInBody,
  SitemapRecacheBody,
  SitemapRecacheResult,
  SummaryBody,
  SummaryResult,
  TimeseriesBody,
  TimeseriesResult,
  WebsiteView,
} from './types';

/** Every endpoint the dashboard calls: the public API, nothing else. */

const site = (website: string) => `/api/websites/${encodeURIComponent(website)}`;

/** `?a=1&b=x` of the options that are set, or nothing. */
function searchOf(options: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const api = {
  session: {
    read: (signal?: AbortSignal) => apiRequest<SessionView>('GET', '/api/session', undefined, { signal, unauthenticatedIsAnswer: true }),
    open: (body: SignInBody) => apiRequest<SessionView>('POST', '/api/session', body, { unauthenticatedIsAnswer: true }),
    end: () => apiRequest<void>('DELETE', '/api/session', undefined, { unauthenticatedIsAnswer: true }),
  },
  websites: (signal?: AbortSignal) => apiRequest<{ websites: WebsiteView[] }>('GET', '/api/websites', undefined, { signal }),
  explorer: {
    discover: (website: string, signal?: AbortSignal) => apiRequest<DiscoveryDocument>('GET', `${site(website)}/data-explorer`, undefined, { signal }),
    query: (website: string, explorerKey: string, body: QueryBody, signal?: AbortSignal) =>
      apiRequest<QueryResult>('POST', `${site(website)}/data-explorer/${encodeURIComponent(explorerKey)}/query`, body, { signal }),
  },
  exports: {
    start: (website: string, explorerKey: string, body: ExportBody) =>
      apiRequest<ExportRecord>('POST', `${site(website)}/data-explorer/${encodeURIComponent(explorerKey)}/export`, body),
    status: (website: string, exportId: number, signal?: AbortSignal) =>
      apiRequest<ExportRecord>('GET', `${site(website)}/data-explorer/export/${exportId}/status`, undefined, { signal }),
    history: (website: string, signal?: AbortSignal) =>
      apiRequest<{ exports: ExportRecord[] }>('GET', `${site(website)}/data-explorer/exports`, undefined, { signal }),
  },
  cache: {
    recache: (website: string, urls: string[], priority: Priority) => apiRequest<RecacheAccepted>('POST', `${site(website)}/cache/recache`, { urls, priority }),
    invalidate: (website: string, urls: string[]) => apiRequest<InvalidateAccepted>('POST', `${site(website)}/cache/invalidate`, { urls }),
    queue: (website: string, signal?: AbortSignal) => apiRequest<QueueStatus>('GET', `${site(website)}/cache/queue`, undefined, { signal }),
    lookup: (website: string, url: string, signal?: AbortSignal) =>
      apiRequest<CacheLookupResult>('GET', `${site(website)}/cache/entries?${new URLSearchParams({ url }).toString()}`, undefined, { signal }),
    entries: (website: string, body: CacheEntriesQueryBody, signal?: AbortSignal) => apiRequest<CacheEntriesPage>('POST', `${site(website)}/cache/entries/query`, body, { signal }),
    invalidateMatching: (website: string, body: InvalidateMatchingBody) => apiRequest<InvalidateMatchingResult>('POST', `${site(website)}/cache/entries/invalidate`, body),
    receipt: (website: string, receiptId: string, options: { page?: number; perPage?: number; state?: ReceiptState } = {}, signal?: AbortSignal) =>
      apiRequest<Receipt>('GET', `${site(website)}/cache/receipts/${encodeURIComponent(receiptId)}${searchOf(options)}`, undefined, { signal }),
    recacheSitemap: (website: string, body: SitemapRecacheBody) => apiRequest<SitemapRecacheResult>('POST', `${site(website)}/cache/recache-sitemap`, body),
  },
  renders: {
    discover: (website: string, signal?: AbortSignal) => apiRequest<RendersDiscovery>('GET', `${site(website)}/renders`, undefined, { signal }),
    query: (website: string, body: QueryBody, signal?: AbortSignal) => apiRequest<QueryResult>('POST', `${site(website)}/renders/query`, body, { signal }),
    timeseries: (website: string, body: RendersTimeseriesBody, signal?: AbortSignal) => apiRequest<RendersTimeseriesResult>('POST', `${site(website)}/renders/timeseries`, body, { signal }),
    /** Through the account's one export slot, shared with the explorers (409 EXPORT_SLOT_BUSY); status at the explorers' status path. */
    export: (website: string, body: ExportBody) => apiRequest<ExportRecord>('POST', `${site(website)}/renders/export`, body),
  },
  alerts: {
    deliveries: (website: string, options: { page?: number; perPage?: number; status?: AlertDelivery['status'] } = {}, signal?: AbortSignal) =>
      apiRequest<AlertDeliveriesPage>('GET', `${site(website)}/alerts/deliveries${searchOf(options)}`, undefined, { signal }),
  },
  insights: {
    summary: (website: string, body: SummaryBody, signal?: AbortSignal) =>
      apiRequest<SummaryResult>('POST', `${site(website)}/insights/summary`, body, { signal }),
    timeseries: (website: string, body: TimeseriesBody, signal?: AbortSignal) =>
      apiRequest<TimeseriesResult>('POST', `${site(website)}/insights/timeseries`, body, { signal }),
  },
  searchPerformance: {
    import: (website: string, body: ImportBody) => apiRequest<ImportResult>('POST', `${site(website)}/search-performance/import`, body),
  },
};

/** The API's limits on cache operations (docs/public-api.md, "Cache operations"); the API enforces them anyway. */
export const CACHE_LIMITS = { recache: { high: 100, normal: 1000 }, invalidate: 1000 } as const;
