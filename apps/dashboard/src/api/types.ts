// The public API's shapes as the dashboard reads them (docs/public-api.md and
// the dashboard API agreed for issue 30). One place: a shape change is one edit.

export type Role = 'readonly' | 'manager' | 'admin' | (string & {});

export interface WebsiteView {
  id: string;
  role: Role;
  platformModule: boolean;
  hostnames: string[];
  edgeUrl: string;
}

export interface SessionView {
  userId: string;
  via: 'token' | 'link';
  expiresAt: string;
  csrfToken: string;
  websites: WebsiteView[];
}

export type SignInBody = { token: string } | { link: string };

// ---- Data Explorer discovery

export interface DiscoveryColumn {
  key: string;
  title: string;
  group: string;
  dataType: 'string' | 'datetime' | 'integer' | 'number' | 'percent' | (string & {});
  sortable: boolean;
  modes: string[];
}

export interface DiscoveryFilter {
  field: string;
  title: string;
  type: 'string' | 'number' | 'enum' | (string & {});
  required: boolean;
  modes: string[];
  operators: string[];
  valuelessOperators: string[];
  options?: { value: string; label: string }[];
}

export interface DiscoveryMode {
  key: string;
  default: boolean;
  columns: DiscoveryColumn[];
  filters: DiscoveryFilter[];
  defaults: { columns: string[]; sort: string; sortDir: SortDir; period: string };
}

export interface ExplorerLimits {
  perPageMax: number;
  perPageDefault: number;
  exportRowCap: number;
}

export interface DiscoveryEntry {
  key: string;
  features: { comparePeriod: boolean; comparisonCategories: boolean };
  modes: DiscoveryMode[];
  periods: { presets: string[]; customFormat: string; timeBounds: boolean; maxRangeDays: number };
  limits: ExplorerLimits;
}

export interface DiscoveryDocument {
  explorers: DiscoveryEntry[];
  limits: ExplorerLimits;
}

// ---- Data Explorer queries

export type SortDir = 'asc' | 'desc';

export interface FilterBody {
  field: string;
  op?: string;
  val?: string | number;
  val2?: string | number;
}

export interface QueryBody {
  mode?: string;
  columns?: string[];
  filters?: FilterBody[];
  period?: string;
  compPeriod?: string;
  compCategory?: string;
  sort?: string;
  sortDir?: SortDir;
  page?: number;
  perPage?: number;
}

export interface TimeWindow {
  start: string;
  end: string;
}

export interface QueryMeta {
  explorerKey: string;
  mode: string;
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
  columns: string[];
  sort: string;
  sortDir: SortDir;
  period: string;
  window: TimeWindow;
  compPeriod?: string;
  compWindow?: TimeWindow;
  compCategory?: string;
}

export type Row = Record<string, unknown> & { _rowId: string | number };

export interface QueryResult {
  data: Row[];
  meta: QueryMeta;
}

// ---- Exports

export type StartedFrom = 'api' | 'dashboard' | 'agent';

interface ExportCommon {
  exportId: number;
  startedFrom?: StartedFrom;
  createdAt?: string;
}

export type ExportRecord =
  | (ExportCommon & { status: 'running'; message: string })
  | (ExportCommon & {
      status: 'completed';
      rowCount: number;
      sizeBytes: number;
      columns: string[];
      maxRows: number;
      filename: string;
      window: { start: string; end: string };
      downloadUrl: string;
      expiresAt: string;
    })
  | (ExportCommon & { status: 'failed'; error: string; errorMessage: string });

export type ExportBody = Omit<QueryBody, 'page' | 'perPage'> & { filename?: string; maxRows?: number; waitSeconds?: number };

// ---- Cache

export type Priority = 'high' | 'normal';

export interface RecacheAccepted {
  entriesEnqueued: number;
  urlsAccepted: number;
  /** Follow it at `GET …/cache/receipts/{receiptId}` (issue 32). */
  receiptId: string;
}

export interface InvalidateAccepted {
  entriesInvalidated: number;
  urlsAccepted: number;
}

export interface QueueCounts {
  total: number;
  due: number;
}

export interface QueueStatus {
  hostId: number | string;
  queues: { high: QueueCounts; normal: QueueCounts };
  paused: boolean;
  pausedUntil: string | null;
  /** An estimate from the recent completion rate, the pause's remaining time included (issue 32). */
  drainEstimate: { high: DrainEstimate; normal: DrainEstimate };
}

// ---- Insights

export interface Summary {
  requests: number | null;
  pages: number | null;
  hitRate: number | null;
  serveTimeP50Ms: number | null;
  serveTimeP95Ms: number | null;
  share4xx: number | null;
  share5xx: number | null;
  rendersFailed: number | null;
}

export interface SummaryBody {
  period?: string;
  compPeriod?: string;
  filters?: FilterBody[];
}

export interface SummaryResult {
  data: { current: Summary; previous: Summary; newPages: number; lostPages: number };
  meta: { period: string; window: TimeWindow; compPeriod: string; compWindow: TimeWindow };
}

export type TimeseriesMetric =
  | 'requests'
  | 'pages'
  | 'hit_rate'
  | 'serve_time_p50'
  | 'serve_time_p95'
  | 'clicks'
  | 'impressions'
  | 'ctr'
  | 'position';

export type SplitBy = 'bot_family' | 'cache_status' | 'status_class' | 'dimension';

export interface TimeseriesBody {
  metric: TimeseriesMetric;
  period?: string;
  compPeriod?: string;
  interval?: 'hour' | 'day';
  splitBy?: SplitBy;
  filters?: FilterBody[];
}

export interface Series {
  key: string;
  points: { t: string; v: number | null }[];
}

export interface TimeseriesResult {
  data: { series: Series[]; comparison?: Series[] };
  meta: { metric: TimeseriesMetric; interval: 'hour' | 'day'; splitBy?: SplitBy; period: string; window: TimeWindow; compPeriod?: string; compWindow?: TimeWindow };
}

// ---- Search performance import

export type ImportFormat = 'pages_csv' | 'queries_csv' | 'searchanalytics_json';

export interface ImportBody {
  format: ImportFormat;
  content?: string;
  date?: string;
}

export interface ImportResult {
  websiteId: string;
  days: { date: string; grain: string; rows: number }[];
}

// ---- Issue 32: render history, cache entries, receipts, sitemap recache, drain estimate, alerts (ISSUE32-DESIGN.md)

/** Outcome classes of the render history's filters: `stored`; `kept` = kept_*; `failed` = retry_scheduled | gave_up | failed. */
export type OutcomeClass = 'stored' | 'kept' | 'failed';

export type RenderOutcome = 'stored' | 'kept_blank' | 'kept_timeout' | 'kept_soft_404' | 'kept_smaller' | 'kept_fresher' | 'retry_scheduled' | 'gave_up' | 'failed';

export type RenderTrigger = 'recache_high' | 'recache_normal' | 'autorecache' | 'sitemap' | 'edge_miss';

/** `GET …/renders`: one discovery entry (key `renders`, modes `renders` and `reasons`) with the account's limits. */
export type RendersDiscovery = DiscoveryEntry;

/** `POST …/renders/timeseries`. */
export interface RendersTimeseriesBody {
  period?: string;
  filters?: FilterBody[];
  interval?: 'hour' | 'day';
}

export interface RendersTimeseriesPoint {
  t: string;
  renders: number;
  stored: number;
  kept: number;
  failed: number;
  renderMsP50: number | null;
  renderMsP95: number | null;
}

export interface RendersTimeseriesResult {
  meta: { period: string; window: TimeWindow; interval: 'hour' | 'day' };
  points: RendersTimeseriesPoint[];
}

export interface PageMeta {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}

/** One configured dimension of a URL in `GET …/cache/entries?url=`: what is cached for it, if anything. */
export interface CacheEntryView {
  dimensionId: number;
  dimension: string;
  cached: boolean;
  kind?: 'render' | 'bypass';
  status?: 'fresh' | 'stale';
  statusCode?: number;
  renderedAt?: string;
  expiresAt?: string;
  bytes?: number;
  renderMs?: number;
  lastServedAt: string | null;
  hits: number;
}

export interface CacheLookupResult {
  url: string;
  entries: CacheEntryView[];
}

/** A URL prefix or an RE2 pattern: one of the two. */
export type UrlMatcher = { prefix: string; pattern?: never } | { pattern: string; prefix?: never };

export type CacheEntriesQueryBody = UrlMatcher & { page?: number; perPage?: number };

export interface CacheEntryRow {
  url: string;
  dimensionId: number;
  /** null for an entry of a dimension no longer configured. */
  dimension: string | null;
  kind: 'render' | 'bypass';
  status: 'fresh' | 'stale';
  statusCode: number;
  renderedAt: string;
  expiresAt: string;
  bytes: number;
  renderMs: number;
}

export interface CacheEntriesPage {
  data: CacheEntryRow[];
  meta: PageMeta;
}

export type InvalidateMatchingBody = UrlMatcher & { dryRun?: boolean };

export interface InvalidateMatchingResult {
  dryRun: boolean;
  entriesMatched: number;
  urlsMatched: number;
  entriesInvalidated: number;
}

export type ReceiptState = 'queued' | 'rendering' | 'stored' | 'kept' | 'failed';

export interface ReceiptTotals {
  entries: number;
  queued: number;
  rendering: number;
  stored: number;
  kept: number;
  failed: number;
}

export interface ReceiptEntry {
  url: string;
  dimensionId: number;
  dimension: string;
  state: ReceiptState;
  outcome?: RenderOutcome | string;
  reason?: string;
  attempt?: number;
  updatedAt?: string;
}

/** `GET …/cache/receipts/{receiptId}`: where each URL × dimension of one recache (or sitemap recache) stands. */
export interface Receipt {
  receiptId: string;
  createdAt: string;
  source: 'api' | 'sitemap' | 'daemon';
  totals: ReceiptTotals;
  /** No entry queued or rendering any more. */
  done: boolean;
  data: ReceiptEntry[];
  meta: PageMeta;
}

export interface SitemapRecacheBody {
  sitemapUrl: string;
  /** `YYYY-MM-DD` or an ISO instant: only URLs whose `lastmod` is newer. */
  lastmodAfter?: string;
  priority?: Priority;
}

export interface SitemapRecacheResult {
  /** null when no URL was taken and nothing was queued. */
  receiptId: string | null;
  sitemapsRead: number;
  urlsFound: number;
  urlsAccepted: number;
  entriesEnqueued: number;
  skipped: { offHost: number; invalid: number; overCap: number; notModified: number; duplicate: number };
}

/** Per priority: the estimated time to drain the queue from the recent completion rate (null: no rate to go by). */
export interface DrainEstimate {
  seconds: number | null;
  completedPerMinute: number;
}

export type AlertType = 'render_failures' | 'page_errors' | 'export_finished';

export interface AlertDelivery {
  alertId: string;
  type: AlertType | (string & {});
  attempt: number;
  status: 'delivered' | 'retrying' | 'failed';
  /** The receiver's answer; null when none came (timeout, refused connection). */
  httpStatus: number | null;
  /** Why the try failed; empty when delivered. */
  error: string;
  at: string;
}

export interface AlertDeliveriesPage {
  data: AlertDelivery[];
  meta: PageMeta;
}
