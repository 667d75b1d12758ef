/**
 * The Data Explorer catalog as data: explorers, modes, columns, filters,
 * operators, defaults, periods and limits. Discovery serves it, query
 * validation reads it and the SQL builder covers exactly its columns and
 * operators, so what discovery says and what a query accepts cannot drift.
 */
import { BOT_CATEGORIES, type BotCategory } from '@bpc/bots';
import { ANSWER_FORMATS, type AnswerFormat, TRI_STATES, type TriState } from '@bpc/events';

import { CHANGE_FIELDS, ISSUE_CATALOG, ISSUE_CODES, ISSUE_SEVERITIES } from '@bpc/domain';

export const EXPLORER_KEYS = ['events', 'search-pages', 'search-keywords', 'pages', 'page_changes'] as const;
export type ExplorerKey = (typeof EXPLORER_KEYS)[number];
/**
 * Render history: a catalog read by the same rules (validation, SQL, paging,
 * exports) but served on its own endpoints (`…/renders`), never listed by
 * Data Explorer discovery nor accepted as an explorer key there.
 */
export const RENDERS_KEY = 'renders';
/** Every catalog the query machinery runs: the Data Explorer's explorers and render history. */
export type CatalogKey = ExplorerKey | typeof RENDERS_KEY;

/** The Data Explorer's modes (what discovery and `…/data-explorer/{explorerKey}/query` know). */
export const MODE_KEYS = ['requests', 'unique_pages', 'comparison', 'search_pages', 'search_keywords', 'pages', 'page_changes'] as const;
export type ExplorerModeKey = (typeof MODE_KEYS)[number];
/** Render history's modes: one row per render, or grouped by outcome and reason. */
export const RENDER_MODE_KEYS = ['renders', 'reasons'] as const;
export type RenderModeKey = (typeof RENDER_MODE_KEYS)[number];
export type ModeKey = ExplorerModeKey | RenderModeKey;

export const TEXT_OPERATORS = ['contains', 'not_contains', 'equals', 'not_equals', 'regex', 'not_regex', 'empty', 'not_empty'] as const;
export const NUMBER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between'] as const;
export const OPTION_OPERATORS = ['eq', 'ne'] as const;
export type Operator = (typeof TEXT_OPERATORS)[number] | (typeof NUMBER_OPERATORS)[number];
/** Operators that take no `val`. */
export const VALUELESS_OPERATORS: readonly Operator[] = ['empty', 'not_empty'];
/** Operators that take `val2` as the upper bound of an inclusive range. */
export const RANGE_OPERATORS: readonly Operator[] = ['between'];

export const COMP_CATEGORIES = ['new', 'returning', 'lost'] as const;
export type CompCategory = (typeof COMP_CATEGORIES)[number];
/** The comparison mode's category when the query names none: pages bots found in the main window only. */
export const DEFAULT_COMP_CATEGORY: CompCategory = 'new';

export const SORT_DIRS = ['asc', 'desc'] as const;
export type SortDir = (typeof SORT_DIRS)[number];

export type DataType = 'string' | 'datetime' | 'integer' | 'number' | 'percent';
export type FilterType = 'string' | 'number' | 'enum';

export interface ColumnDef {
  readonly key: string;
  readonly title: string;
  readonly group: string;
  readonly dataType: DataType;
  readonly sortable: boolean;
  readonly modes: readonly ModeKey[];
}

export interface FilterOption {
  readonly value: string;
  readonly label: string;
}

export interface FilterDef {
  readonly field: string;
  readonly title: string;
  readonly type: FilterType;
  readonly required: boolean;
  readonly modes: readonly ModeKey[];
  /** The first is used when a filter names no `op`. */
  readonly operators: readonly Operator[];
  readonly valuelessOperators: readonly Operator[];
  readonly options?: readonly FilterOption[];
}

export interface ModeDefaults {
  readonly columns: readonly string[];
  readonly sort: string;
  readonly sortDir: SortDir;
  readonly period: string;
}

export interface ModeDef {
  readonly key: ModeKey;
  readonly default: boolean;
  /** Whether the mode compares the main window with a comparison window (`compPeriod`, `compCategory`). */
  readonly comparisonWindow: boolean;
  readonly defaults: ModeDefaults;
}

export interface PeriodRules {
  readonly presets: readonly string[];
  readonly customFormat: 'YYYY-MM-DD,YYYY-MM-DD';
  /** Whether a custom range may carry a time of day (`YYYY-MM-DDTHH:mm`). */
  readonly timeBounds: boolean;
  readonly maxRangeDays: number;
}

export interface ExplorerDef {
  readonly key: CatalogKey;
  readonly features: { readonly comparePeriod: boolean; readonly comparisonCategories: boolean };
  readonly modes: readonly ModeDef[];
  readonly columns: readonly ColumnDef[];
  readonly filters: readonly FilterDef[];
  readonly periods: PeriodRules;
}

export interface ExplorerLimits {
  readonly perPageMax: number;
  readonly perPageDefault: number;
  readonly exportRowCap: number;
}

/** The specification's limits: what an account gets unless `accounts[].limits` lowers them. */
export const DEFAULT_LIMITS: ExplorerLimits = { perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 };

export const MAX_RANGE_DAYS = 365;
/** Longest text a filter value may hold. */
export const MAX_FILTER_TEXT = 1000;

const EVENT_MODES: readonly ModeKey[] = ['requests', 'unique_pages', 'comparison'];
const REQ: readonly ModeKey[] = ['requests'];
const UNIQ: readonly ModeKey[] = ['unique_pages'];
const COMP: readonly ModeKey[] = ['comparison'];
const AGG: readonly ModeKey[] = ['unique_pages', 'comparison'];

const text = (field: string, title: string, modes: readonly ModeKey[]): FilterDef => ({
  field, title, type: 'string', required: false, modes, operators: TEXT_OPERATORS, valuelessOperators: VALUELESS_OPERATORS,
});
const numeric = (field: string, title: string, modes: readonly ModeKey[]): FilterDef => ({
  field, title, type: 'number', required: false, modes, operators: NUMBER_OPERATORS, valuelessOperators: [],
});

/** A fixed-set filter: its options are the recorded values, in their list's order, each with its label. */
const options = <Value extends string>(field: string, title: string, values: readonly Value[], labels: Readonly<Record<Value, string>>): FilterDef => ({
  field, title, type: 'enum', required: false, modes: EVENT_MODES, operators: OPTION_OPERATORS, valuelessOperators: [],
  options: values.map((value) => ({ value, label: labels[value] })),
});

/** Labels of the bot categories (`@bpc/bots`); typed by the list, so a new category does not compile without one. */
const BOT_CATEGORY_LABELS: Readonly<Record<BotCategory, string>> = {
  search: 'Search',
  ai_search: 'AI search',
  ai_assistant: 'AI assistant',
  ai_training: 'AI training',
  social: 'Social',
  seo_tool: 'SEO tool',
  monitoring: 'Monitoring',
  other: 'Other',
};
const FORMAT_LABELS: Readonly<Record<AnswerFormat, string>> = { html: 'HTML', markdown: 'Markdown' };
const TRI_STATE_LABELS: Readonly<Record<TriState, string>> = { yes: 'Yes', no: 'No', unknown: 'Unknown' };

const DAY_PRESETS = ['7d', '14d', '28d', '30d', '90d'];

/** SEO health's explorers (docs/seo-health.md): read per website's host, so the query binds them to it (`siteExplorerOf`). */
export const PAGES_KEY = 'pages';
export const PAGE_CHANGES_KEY = 'page_changes';

const PG: readonly ModeKey[] = ['pages'];
const CH: readonly ModeKey[] = ['page_changes'];
/** A fixed-set filter of some modes, its options given with their labels. */
const optionsIn = (field: string, title: string, modes: readonly ModeKey[], values: readonly FilterOption[]): FilterDef => ({
  field, title, type: 'enum', required: false, modes, operators: OPTION_OPERATORS, valuelessOperators: [], options: values,
});
const column = (key: string, title: string, group: string, dataType: DataType, modes: readonly ModeKey[]): ColumnDef => ({ key, title, group, dataType, sortable: true, modes });
const issueLabel = (code: keyof typeof ISSUE_CATALOG): string => `${code} (${ISSUE_CATALOG[code].severity}): ${ISSUE_CATALOG[code].explanation}`;

/** One row per URL × dimension: the latest facts, the issue codes, and for the period bot requests and search performance. */
const PAGES_EXPLORER: ExplorerDef = {
  key: PAGES_KEY,
  features: { comparePeriod: false, comparisonCategories: false },
  modes: [{ key: 'pages', default: true, comparisonWindow: false, defaults: { columns: ['url', 'dimension', 'title', 'issues', 'critical_issues', 'requests', 'clicks'], sort: 'critical_issues', sortDir: 'desc', period: '28d' } }],
  columns: [
    column('url', 'Page', 'Page', 'string', PG),
    column('dimension', 'Cache dimension', 'Page', 'string', PG),
    column('title', 'Title', 'Facts', 'string', PG),
    column('description', 'Meta description', 'Facts', 'string', PG),
    column('canonical', 'Canonical URL', 'Facts', 'string', PG),
    column('noindex', 'Noindex (who says it; empty when indexable)', 'Facts', 'string', PG),
    column('status_code', 'Status code', 'Facts', 'integer', PG),
    column('word_count', 'Words', 'Facts', 'integer', PG),
    column('h1', 'First h1', 'Facts', 'string', PG),
    column('lang', 'Language', 'Facts', 'string', PG),
    column('structured_data', 'Structured data types', 'Facts', 'string', PG),
    column('images_without_alt', 'Images without alt', 'Facts', 'integer', PG),
    column('issues', 'Issues (codes)', 'Issues', 'string', PG),
    column('critical_issues', 'Critical issues', 'Issues', 'integer', PG),
    column('urgent', 'Urgent: noindex, yet bots requested it or a sitemap listed it in the period (1) or not (0)', 'Issues', 'integer', PG),
    column('in_sitemap', 'Listed in a sitemap: a sitemap recache named it in the period (1) or not (0)', 'Traffic', 'integer', PG),
    column('last_rendered_at', 'Last render (UTC)', 'Page', 'datetime', PG),
    column('requests', 'Bot requests', 'Traffic', 'integer', PG),
    column('last_googlebot_at', 'Last Googlebot request (UTC)', 'Traffic', 'datetime', PG),
    column('clicks', 'Clicks', 'Search', 'integer', PG),
    column('impressions', 'Impressions', 'Search', 'integer', PG),
  ],
  filters: [
    text('url', 'URL', PG),
    text('title', 'Title', PG),
    text('dimension', 'Cache dimension', PG),
    optionsIn('issue', 'Issue', PG, ISSUE_CODES.map((code) => ({ value: code, label: issueLabel(code) }))),
    optionsIn('noindex', 'Noindex', PG, [{ value: 'yes', label: 'Noindex' }, { value: 'no', label: 'Indexable' }]),
    numeric('status_code', 'Status code', PG),
    numeric('word_count', 'Words', PG),
    numeric('critical_issues', 'Critical issues', PG),
    numeric('urgent', 'Urgent (1: noindex yet requested by bots or listed in a sitemap)', PG),
    numeric('in_sitemap', 'Listed in a sitemap (1) or not (0)', PG),
    numeric('requests', 'Bot requests', PG),
  ],
  periods: { presets: DAY_PRESETS, customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: false, maxRangeDays: MAX_RANGE_DAYS },
};

/** One row per change, coalesced per URL × dimension × field × day (docs/seo-health.md). */
const PAGE_CHANGES_EXPLORER: ExplorerDef = {
  key: PAGE_CHANGES_KEY,
  features: { comparePeriod: false, comparisonCategories: false },
  modes: [{ key: 'page_changes', default: true, comparisonWindow: false, defaults: { columns: ['url', 'dimension', 'changed_at', 'field', 'before', 'after', 'severity'], sort: 'changed_at', sortDir: 'desc', period: '7d' } }],
  columns: [
    column('url', 'Page', 'Page', 'string', CH),
    column('dimension', 'Cache dimension', 'Page', 'string', CH),
    column('changed_at', 'Changed at (UTC, the day\'s latest change)', 'Change', 'datetime', CH),
    column('field', 'Field', 'Change', 'string', CH),
    column('before', 'Before (the day\'s first)', 'Change', 'string', CH),
    column('after', 'After (the day\'s latest)', 'Change', 'string', CH),
    column('severity', 'Severity (the day\'s most severe)', 'Change', 'string', CH),
    column('renders', 'Renders that changed it that day', 'Change', 'integer', CH),
  ],
  filters: [
    text('url', 'URL', CH),
    text('dimension', 'Cache dimension', CH),
    optionsIn('field', 'Field', CH, CHANGE_FIELDS.map((field) => ({ value: field, label: field }))),
    optionsIn('severity', 'Severity', CH, ISSUE_SEVERITIES.map((severity) => ({ value: severity, label: severity }))),
    // `noindex` turning on is `before` equals false and `after` equals true (values as `changesBetween` writes them).
    text('before', "Before (the day's first)", CH),
    text('after', "After (the day's latest)", CH),
  ],
  // Rolling like `events`: today's changes are the ones a customer looks for first.
  periods: { presets: ['24h', ...DAY_PRESETS], customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: true, maxRangeDays: MAX_RANGE_DAYS },
};

export const EXPLORER_CATALOG: readonly ExplorerDef[] = [
  {
    key: 'events',
    features: { comparePeriod: true, comparisonCategories: true },
    modes: [
      { key: 'requests', default: true, comparisonWindow: false, defaults: { columns: ['page', 'event_date_time', 'bot_name', 'serve_time'], sort: 'event_date_time', sortDir: 'desc', period: '30d' } },
      { key: 'unique_pages', default: false, comparisonWindow: false, defaults: { columns: ['page', 'requests', 'bots', 'avg_serve_time', 'last_event_date_time'], sort: 'requests', sortDir: 'desc', period: '30d' } },
      { key: 'comparison', default: false, comparisonWindow: true, defaults: { columns: ['page', 'requests', 'comp_requests', 'requests_change'], sort: 'requests', sortDir: 'desc', period: '30d' } },
    ],
    columns: [
      { key: 'page', title: 'Page', group: 'Page', dataType: 'string', sortable: true, modes: EVENT_MODES },
      { key: 'event_date_time', title: 'Date & time (UTC)', group: 'Request', dataType: 'datetime', sortable: true, modes: REQ },
      { key: 'bot_name', title: 'Bot', group: 'Request', dataType: 'string', sortable: true, modes: REQ },
      { key: 'serve_time', title: 'Serve time (ms)', group: 'Performance', dataType: 'integer', sortable: true, modes: REQ },
      { key: 'status_code', title: 'Status code', group: 'Response', dataType: 'integer', sortable: true, modes: REQ },
      { key: 'cache_status', title: 'Cache status', group: 'Response', dataType: 'string', sortable: true, modes: REQ },
      { key: 'dimension', title: 'Cache dimension', group: 'Response', dataType: 'string', sortable: true, modes: REQ },
      { key: 'snapshot_age', title: 'Snapshot age (s)', group: 'Response', dataType: 'integer', sortable: true, modes: REQ },
      { key: 'bytes', title: 'Bytes', group: 'Response', dataType: 'integer', sortable: true, modes: REQ },
      { key: 'user_agent', title: 'User agent', group: 'Request', dataType: 'string', sortable: false, modes: REQ },
      { key: 'host', title: 'Host', group: 'Page', dataType: 'string', sortable: true, modes: REQ },
      { key: 'bot_category', title: 'Bot category', group: 'Bot', dataType: 'string', sortable: true, modes: REQ },
      { key: 'bot_operator', title: 'Bot operator', group: 'Bot', dataType: 'string', sortable: true, modes: REQ },
      { key: 'verified', title: 'Verified bot', group: 'Bot', dataType: 'string', sortable: true, modes: REQ },
      { key: 'robots_allowed', title: 'Allowed by robots.txt', group: 'Bot', dataType: 'string', sortable: true, modes: REQ },
      { key: 'format', title: 'Answer format', group: 'Response', dataType: 'string', sortable: true, modes: REQ },
      { key: 'requests', title: 'Requests', group: 'Traffic', dataType: 'integer', sortable: true, modes: AGG },
      { key: 'bots', title: 'Distinct bots', group: 'Traffic', dataType: 'integer', sortable: true, modes: UNIQ },
      { key: 'avg_serve_time', title: 'Average serve time (ms)', group: 'Performance', dataType: 'integer', sortable: true, modes: AGG },
      { key: 'max_serve_time', title: 'Slowest serve time (ms)', group: 'Performance', dataType: 'integer', sortable: true, modes: UNIQ },
      { key: 'hit_rate', title: 'Cache hit rate', group: 'Performance', dataType: 'percent', sortable: true, modes: UNIQ },
      { key: 'last_event_date_time', title: 'Last request (UTC)', group: 'Traffic', dataType: 'datetime', sortable: true, modes: UNIQ },
      { key: 'comp_requests', title: 'Requests (comparison)', group: 'Comparison', dataType: 'integer', sortable: true, modes: COMP },
      { key: 'requests_change', title: 'Requests change', group: 'Comparison', dataType: 'integer', sortable: true, modes: COMP },
      { key: 'comp_avg_serve_time', title: 'Average serve time (ms, comparison)', group: 'Comparison', dataType: 'integer', sortable: true, modes: COMP },
    ],
    filters: [
      text('url', 'URL', EVENT_MODES),
      text('bot_name', 'Bot', EVENT_MODES),
      numeric('status_code', 'Status code', EVENT_MODES),
      numeric('serve_time', 'Serve time (ms)', EVENT_MODES),
      {
        field: 'cache_status', title: 'Cache status', type: 'enum', required: false, modes: EVENT_MODES, operators: OPTION_OPERATORS, valuelessOperators: [],
        options: [{ value: 'hit', label: 'Hit' }, { value: 'miss', label: 'Miss' }, { value: 'stale', label: 'Stale' }, { value: 'bypass', label: 'Bypass' }],
      },
      options('bot_category', 'Bot category', BOT_CATEGORIES, BOT_CATEGORY_LABELS),
      // Operators are an open list (the vendored lists name hundreds, and they change): matched as text, as bot names are.
      text('bot_operator', 'Bot operator', EVENT_MODES),
      options('verified', 'Verified bot', TRI_STATES, TRI_STATE_LABELS),
      options('robots_allowed', 'Allowed by robots.txt', TRI_STATES, TRI_STATE_LABELS),
      options('format', 'Answer format', ANSWER_FORMATS, FORMAT_LABELS),
    ],
    periods: { presets: ['24h', ...DAY_PRESETS], customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: true, maxRangeDays: MAX_RANGE_DAYS },
  },
  {
    key: 'search-pages',
    features: { comparePeriod: false, comparisonCategories: false },
    modes: [{ key: 'search_pages', default: true, comparisonWindow: false, defaults: { columns: ['page', 'clicks', 'impressions', 'ctr', 'position'], sort: 'clicks', sortDir: 'desc', period: '28d' } }],
    columns: [
      { key: 'page', title: 'Page', group: 'Page', dataType: 'string', sortable: true, modes: ['search_pages'] },
      ...searchColumns('search_pages'),
    ],
    filters: [text('url', 'URL', ['search_pages'])],
    periods: { presets: DAY_PRESETS, customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: false, maxRangeDays: MAX_RANGE_DAYS },
  },
  {
    key: 'search-keywords',
    features: { comparePeriod: false, comparisonCategories: false },
    modes: [{ key: 'search_keywords', default: true, comparisonWindow: false, defaults: { columns: ['keyword', 'clicks', 'impressions', 'ctr', 'position'], sort: 'clicks', sortDir: 'desc', period: '28d' } }],
    columns: [
      { key: 'keyword', title: 'Search query', group: 'Query', dataType: 'string', sortable: true, modes: ['search_keywords'] },
      ...searchColumns('search_keywords'),
    ],
    filters: [text('keyword', 'Search query', ['search_keywords'])],
    periods: { presets: DAY_PRESETS, customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: false, maxRangeDays: MAX_RANGE_DAYS },
  },
  PAGES_EXPLORER,
  PAGE_CHANGES_EXPLORER,
];

function searchColumns(mode: ModeKey): ColumnDef[] {
  return [
    { key: 'clicks', title: 'Clicks', group: 'Search', dataType: 'integer', sortable: true, modes: [mode] },
    { key: 'impressions', title: 'Impressions', group: 'Search', dataType: 'integer', sortable: true, modes: [mode] },
    { key: 'ctr', title: 'CTR', group: 'Search', dataType: 'percent', sortable: true, modes: [mode] },
    { key: 'position', title: 'Average position', group: 'Search', dataType: 'number', sortable: true, modes: [mode] },
  ];
}

/** Extra values a requested column brings into each row (`_`-prefixed, never requestable). */
export const COMPANIONS: Readonly<Record<string, readonly string[]>> = {
  page: ['_title', '_status_code'],
};

/** The extra values `column` brings into rows of `explorer`: bot-request pages only (render history rows carry their own status). */
export function companionsOf(explorer: ExplorerDef, column: string): readonly string[] {
  return explorer.key === RENDERS_KEY ? [] : (COMPANIONS[column] ?? []);
}

/** A Data Explorer explorer by key (render history is not one: see RENDERS_KEY). */
export function findExplorer(key: string): ExplorerDef | undefined {
  return EXPLORER_CATALOG.find((e) => e.key === key);
}

export function defaultMode(explorer: ExplorerDef): ModeDef {
  return explorer.modes.find((m) => m.default) ?? explorer.modes[0];
}

export function columnsOf(explorer: ExplorerDef, mode: ModeKey): ColumnDef[] {
  return explorer.columns.filter((c) => c.modes.includes(mode));
}

export function filtersOf(explorer: ExplorerDef, mode: ModeKey): FilterDef[] {
  return explorer.filters.filter((f) => f.modes.includes(mode));
}
