// The public API's shapes as the dashboard reads them: the types openapi-typescript
// generates from deploy/openapi/public-api.json (public-api.ts, `npm run openapi:dashboard`),
// under the names the pages use, so a contract change breaks the build.
// Where the document says less than the API answers (discovery and query answers
// typed as plain objects, fields not marked required, "one of the two"), the
// dashboard's narrower reading is written here and checked to fit the document's
// type (`Narrowed`); docs/public-api.md describes those shapes.

import type { components, operations } from './public-api';

type Schemas = components['schemas'];

/** The JSON body of an operation's 200 answer. */
type Answer<Operation extends keyof operations> = operations[Operation]['responses'] extends { 200: { content: { 'application/json': infer Body } } } ? Body : never;

/**
 * The dashboard's narrower reading of a type the document leaves looser: it
 * must fit the document's type and name no field the document does not, so
 * the document cannot change under it unnoticed.
 */
type Narrowed<Document, Narrow extends Document & Record<Exclude<keyof Narrow, keyof Document>, never>> = Narrow;

export type WebsiteView = Schemas['WebsiteViewDto'];
export type Role = WebsiteView['role'];
export type SessionView = Schemas['SessionViewDto'];

/** A token or a link's secret: one of the two (the document makes both optional). */
export type SignInBody = Narrowed<Schemas['SignInDto'], { token: string } | { link: string }>;

// ---- Data Explorer discovery (the document types explorers, modes and periods as plain objects)

export type DiscoveryColumn = {
  key: string;
  title: string;
  group: string;
  dataType: 'string' | 'datetime' | 'integer' | 'number' | 'percent' | (string & {});
  sortable: boolean;
  modes: string[];
};

export type DiscoveryFilter = {
  field: string;
  title: string;
  type: 'string' | 'number' | 'enum' | (string & {});
  required: boolean;
  modes: string[];
  operators: string[];
  valuelessOperators: string[];
  options?: { value: string; label: string }[];
};

export type DiscoveryMode = {
  key: string;
  default: boolean;
  columns: DiscoveryColumn[];
  filters: DiscoveryFilter[];
  defaults: { columns: string[]; sort: string; sortDir: SortDir; period: string };
};

type DiscoveryAnswer = Answer<'DataExplorer_discover'>;

/** The document lists the three limits but marks none required. */
export type ExplorerLimits = Required<NonNullable<DiscoveryAnswer['limits']>>;

export type DiscoveryEntry = {
  key: string;
  features: { comparePeriod: boolean; comparisonCategories: boolean };
  modes: DiscoveryMode[];
  periods: { presets: string[]; customFormat: string; timeBounds: boolean; maxRangeDays: number };
  limits: ExplorerLimits;
};

/** The explorers a query or an export names (the document's `explorerKey`). */
export type ExplorerKey = operations['DataExplorer_query']['parameters']['path']['explorerKey'];

export type ExplorerEntry = DiscoveryEntry & { key: ExplorerKey };

export type DiscoveryDocument = Narrowed<DiscoveryAnswer, { explorers: ExplorerEntry[]; limits: ExplorerLimits }>;

// ---- Data Explorer queries

export type SortDir = NonNullable<Schemas['QueryExplorerDto']['sortDir']>;
export type CompCategory = NonNullable<Schemas['QueryExplorerDto']['compCategory']>;

export type FilterBody = Schemas['QueryFilterDto'];

/**
 * An explorer filter as the page sends it: a range's upper bound goes as
 * typed when it is not a number, so that the API's refusal names its control
 * (the document types `val2` as a number).
 */
export type ExplorerFilterBody = Omit<FilterBody, 'val2'> & { val2?: number | string };

export type QueryBody = Omit<Schemas['QueryExplorerDto'], 'filters'> & { filters?: ExplorerFilterBody[] };

export type TimeWindow = Schemas['InsightsWindowDto'];

/** The document types a query answer's `meta` as a plain object. */
export type QueryMeta = {
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
  compCategory?: CompCategory;
};

export type Row = Record<string, unknown> & { _rowId: string | number };

export type QueryResult = Narrowed<Answer<'DataExplorer_query'>, { data: Row[]; meta: QueryMeta }>;

// ---- Exports

export type ExportRecord = Answer<'Exports_status'>;
export type StartedFrom = ExportRecord['startedFrom'];

export type ExportBody = Omit<Schemas['StartExportDto'], 'filters'> & { filters?: ExplorerFilterBody[] };

// ---- Cache

export type Priority = NonNullable<Schemas['RecacheWebsiteDto']['priority']>;
export type RecacheAccepted = Schemas['RecacheWebsiteResponseDto'];
export type InvalidateAccepted = Schemas['InvalidateWebsiteCacheResponseDto'];
export type QueueCounts = Schemas['QueuedCountDto'];
export type QueueStatus = Schemas['QueueStatusDto'];

// ---- Insights

export type Summary = Schemas['InsightsFiguresDto'];
export type SummaryBody = Schemas['InsightsSummaryDto'];
export type SummaryResult = Schemas['InsightsSummaryAnswerDto'];
export type TimeseriesBody = Schemas['InsightsTimeseriesDto'];
export type TimeseriesMetric = TimeseriesBody['metric'];
export type SplitBy = NonNullable<TimeseriesBody['splitBy']>;
export type Series = Schemas['InsightsSeriesDto'];
export type TimeseriesResult = Schemas['InsightsTimeseriesAnswerDto'];
export type BotCategoriesBody = Schemas['InsightsBotCategoriesDto'];
export type BotCategoriesResult = Schemas['InsightsBotCategoriesAnswerDto'];
export type AiCrawlersBody = Schemas['InsightsAiCrawlersDto'];
export type AiCrawlersResult = Schemas['InsightsAiCrawlersAnswerDto'];
export type AiCrawler = Schemas['AiCrawlerDto'];
export type SeoInsightsBody = Schemas['SeoInsightsDto'];
export type SeoInsightsResult = Schemas['SeoInsightsAnswerDto'];
export type SeoIssueCount = Schemas['SeoIssueCountDto'];
export type IssueSeverity = SeoIssueCount['severity'];

// ---- Search performance import

export type ImportBody = Schemas['ImportSearchPerformanceDto'];
export type ImportFormat = ImportBody['format'];

type ImportAnswer = Answer<'SearchPerformance_import'>;

/** The document marks none of the answer's fields required. */
export type ImportResult = Narrowed<ImportAnswer, { websiteId: string; days: Required<NonNullable<ImportAnswer['days']>[number]>[] }>;

// ---- Issue 32: render history, cache entries, receipts, sitemap recache, drain estimate, alerts (ISSUE32-DESIGN.md)

/** Outcome classes of the render history's filters: `stored`; `kept` = kept_*; `failed` = retry_scheduled | gave_up | failed (discovery's options; the document has no type for them). */
export type OutcomeClass = 'stored' | 'kept' | 'failed';

/** Render outcomes (the document spells them as plain strings). */
export type RenderOutcome = 'stored' | 'kept_blank' | 'kept_timeout' | 'kept_soft_404' | 'kept_smaller' | 'kept_fresher' | 'retry_scheduled' | 'gave_up' | 'failed';

export type RenderTrigger = 'recache_high' | 'recache_normal' | 'autorecache' | 'sitemap' | 'edge_miss';

/** `GET …/renders`: one discovery entry (key `renders`, modes `renders` and `reasons`) with the account's limits. */
export type RendersDiscovery = Narrowed<Answer<'Renders_discover'>, DiscoveryEntry & { key: 'renders' }>;

export type RendersQueryBody = Schemas['QueryRendersDto'];
export type RendersExportBody = Schemas['ExportRendersDto'];
export type RendersTimeseriesBody = Schemas['RendersTimeseriesDto'];
export type RendersTimeseriesPoint = Schemas['RendersPointDto'];
export type RendersTimeseriesResult = Schemas['RendersTimeseriesAnswerDto'];

/** The paging of cache entries, receipts and alert deliveries: the same four numbers. */
export type PageMeta = Schemas['CacheEntryPageMetaDto'] | Schemas['ReceiptMetaDto'] | Schemas['AlertDeliveriesMetaDto'];

/** One configured dimension of a URL in `GET …/cache/entries?url=`: what is cached for it, if anything. */
export type CacheEntryView = Schemas['CacheEntryDimensionDto'];
export type CacheLookupResult = Schemas['CacheEntryLookupDto'];

/** A URL prefix or an RE2 pattern: exactly one of the two (the document makes both optional). */
export type UrlMatcher = { prefix: string; pattern?: never } | { pattern: string; prefix?: never };

export type CacheEntriesQueryBody = Narrowed<Schemas['ListCacheEntriesDto'], UrlMatcher & Omit<Schemas['ListCacheEntriesDto'], keyof UrlMatcher>>;
export type CacheEntryRow = Schemas['CacheEntryRowDto'];
export type CacheEntriesPage = Schemas['CacheEntryListingDto'];

export type InvalidateMatchingBody = Narrowed<Schemas['InvalidateMatchingEntriesDto'], UrlMatcher & Omit<Schemas['InvalidateMatchingEntriesDto'], keyof UrlMatcher>>;
export type InvalidateMatchingResult = Schemas['MatchingEntriesInvalidatedDto'];

export type ReceiptState = Schemas['ReceiptEntryDto']['state'];
export type ReceiptTotals = Schemas['ReceiptTotalsDto'];
export type ReceiptEntry = Schemas['ReceiptEntryDto'];
/** `GET …/cache/receipts/{receiptId}`: where each URL × dimension of one recache (or sitemap recache) stands. */
export type Receipt = Schemas['RecacheReceiptDto'];
export type ReceiptQuery = NonNullable<operations['RecacheReceipts_read']['parameters']['query']>;

export type SitemapRecacheBody = Schemas['RecacheWebsiteSitemapDto'];
export type SitemapRecacheResult = Schemas['RecacheWebsiteSitemapResponseDto'];

/** Per priority: the estimated time to drain the queue from the recent completion rate (null: no rate to go by). */
export type DrainEstimate = Schemas['DrainEstimateDto'];

export type AlertDelivery = Schemas['AlertDeliveryDto'];
export type AlertType = AlertDelivery['type'];
export type AlertDeliveriesPage = Schemas['AlertDeliveriesDto'];
export type AlertDeliveriesQuery = NonNullable<operations['AlertDeliveries_deliveries']['parameters']['query']>;
