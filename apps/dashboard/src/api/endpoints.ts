import { apiRequest } from './client';
import type {
  DiscoveryDocument,
  ExportBody,
  ExportRecord,
  ImportBody,
  ImportResult,
  InvalidateAccepted,
  Priority,
  QueryBody,
  QueryResult,
  QueueStatus,
  RecacheAccepted,
  SessionView,
  SignInBody,
  SummaryBody,
  SummaryResult,
  TimeseriesBody,
  TimeseriesResult,
  WebsiteView,
} from './types';

/** Every endpoint the dashboard calls: the public API, nothing else. */

const site = (website: string) => `/api/websites/${encodeURIComponent(website)}`;

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
