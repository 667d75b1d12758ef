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
