import type { AppConfig } from '@bpc/config';
import { AppError } from '@bpc/domain';
import {
  ColumnDef,
  ExplorerDef,
  FilterDef,
  MAX_RANGE_DAYS,
  NUMBER_OPERATORS,
  OPTION_OPERATORS,
  RENDERS_KEY,
  RenderModeKey,
  TEXT_OPERATORS,
  VALUELESS_OPERATORS,
} from '../catalog/explorer-catalog';

/**
 * Render history as catalog data: the same shape as an explorer's, so the
 * Data Explorer's rules (validation, periods, SQL whitelists, paging,
 * exports) read it unchanged. One catalog per website: the `dimension`
 * filter offers the dimensions of the website's host.
 */

/** What a render ended in (RenderRecorded `outcome`), as stored in `render_outcomes.outcome`. */
export const RENDER_OUTCOMES = ['stored', 'kept_blank', 'kept_timeout', 'kept_soft_404', 'kept_smaller', 'kept_fresher', 'retry_scheduled', 'gave_up', 'failed'] as const;
export type RenderOutcome = (typeof RENDER_OUTCOMES)[number];

/** Outcome classes of the API filters and the dashboard: `kept` is every kept_*; `failed` is retry_scheduled, gave_up and failed. */
export const OUTCOME_CLASSES = ['stored', 'kept', 'failed'] as const;
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];
export const FAILED_OUTCOMES: readonly RenderOutcome[] = ['retry_scheduled', 'gave_up', 'failed'];

export function outcomeClassOf(outcome: RenderOutcome): OutcomeClass {
  if (outcome === 'stored') return 'stored';
  return FAILED_OUTCOMES.includes(outcome) ? 'failed' : 'kept';
}

export const RENDER_TRIGGERS = ['recache_high', 'recache_normal', 'autorecache', 'sitemap', 'edge_miss'] as const;

/** A cache dimension of the website's host: its id is what `render_outcomes.dimension_id` holds, its name what rows show. */
export interface RenderDimension {
  readonly id: number;
  readonly name: string;
}

/** Render history's catalog for one website: the host whose rows it reads, and that host's dimensions. */
export interface RendersDef extends ExplorerDef {
  readonly key: typeof RENDERS_KEY;
  readonly hostId: number;
  readonly dimensions: readonly RenderDimension[];
}

const R: readonly RenderModeKey[] = ['renders'];
const G: readonly RenderModeKey[] = ['reasons'];
const BOTH: readonly RenderModeKey[] = ['renders', 'reasons'];

const OUTCOME_LABELS: Readonly<Record<RenderOutcome, string>> = {
  stored: 'Stored',
  kept_blank: 'Kept the old entry: blank render',
  kept_timeout: 'Kept the old entry: timed out',
  kept_soft_404: 'Kept the old entry: soft 404',
  kept_smaller: 'Kept the old entry: much smaller',
  kept_fresher: 'Kept the old entry: a fresher render won',
  retry_scheduled: 'Failed, retry scheduled',
  gave_up: 'Failed, gave up',
  failed: 'Failed',
};

const TRIGGER_LABELS: Readonly<Record<(typeof RENDER_TRIGGERS)[number], string>> = {
  recache_high: 'Recache (high priority)',
  recache_normal: 'Recache (normal priority)',
  autorecache: 'Autorecache',
  sitemap: 'Sitemap recache',
  edge_miss: 'Edge miss',
};

const COLUMNS: readonly ColumnDef[] = [
  { key: 'page', title: 'Page', group: 'Page', dataType: 'string', sortable: true, modes: R },
  { key: 'rendered_at', title: 'Rendered at (UTC)', group: 'Render', dataType: 'datetime', sortable: true, modes: R },
  { key: 'dimension', title: 'Cache dimension', group: 'Render', dataType: 'string', sortable: true, modes: R },
  { key: 'mode', title: 'Mode', group: 'Render', dataType: 'string', sortable: true, modes: R },
  { key: 'trigger', title: 'Trigger', group: 'Render', dataType: 'string', sortable: true, modes: R },
  { key: 'outcome', title: 'Outcome', group: 'Outcome', dataType: 'string', sortable: true, modes: BOTH },
  { key: 'reason', title: 'Reason', group: 'Outcome', dataType: 'string', sortable: true, modes: BOTH },
  { key: 'status_code', title: 'Status code', group: 'Outcome', dataType: 'integer', sortable: true, modes: R },
  { key: 'render_ms', title: 'Render time (ms)', group: 'Performance', dataType: 'integer', sortable: true, modes: R },
  { key: 'bytes', title: 'Bytes', group: 'Outcome', dataType: 'integer', sortable: true, modes: R },
  { key: 'attempt', title: 'Attempt', group: 'Render', dataType: 'integer', sortable: true, modes: R },
  // The receipt of the recache whose queue entry was rendered ('' for edge misses, autorecaches and requests without one).
  { key: 'receipt', title: 'Recache receipt', group: 'Render', dataType: 'string', sortable: false, modes: R },
  { key: 'renders', title: 'Renders', group: 'Renders', dataType: 'integer', sortable: true, modes: G },
  { key: 'pages', title: 'Distinct pages', group: 'Renders', dataType: 'integer', sortable: true, modes: G },
  { key: 'avg_render_ms', title: 'Average render time (ms)', group: 'Performance', dataType: 'integer', sortable: true, modes: G },
  { key: 'last_rendered_at', title: 'Last render (UTC)', group: 'Renders', dataType: 'datetime', sortable: true, modes: G },
];

const text = (field: string, title: string): FilterDef => ({ field, title, type: 'string', required: false, modes: BOTH, operators: TEXT_OPERATORS, valuelessOperators: VALUELESS_OPERATORS });
const numeric = (field: string, title: string): FilterDef => ({ field, title, type: 'number', required: false, modes: BOTH, operators: NUMBER_OPERATORS, valuelessOperators: [] });
const options = (field: string, title: string, values: readonly { value: string; label: string }[]): FilterDef => ({
  field, title, type: 'enum', required: false, modes: BOTH, operators: OPTION_OPERATORS, valuelessOperators: [], options: values,
});

/** The render-history catalog of one host (pure): its dimensions become the `dimension` filter's options. */
export function rendersCatalog(hostId: number, dimensions: readonly RenderDimension[]): RendersDef {
  return {
    key: RENDERS_KEY,
    hostId,
    dimensions,
    features: { comparePeriod: false, comparisonCategories: false },
    modes: [
      { key: 'renders', default: true, comparisonWindow: false, defaults: { columns: ['page', 'rendered_at', 'outcome', 'reason', 'render_ms'], sort: 'rendered_at', sortDir: 'desc', period: '7d' } },
      { key: 'reasons', default: false, comparisonWindow: false, defaults: { columns: ['outcome', 'reason', 'renders', 'pages', 'avg_render_ms', 'last_rendered_at'], sort: 'renders', sortDir: 'desc', period: '7d' } },
    ],
    columns: COLUMNS,
    filters: [
      text('url', 'URL'),
      options('outcome', 'Outcome', RENDER_OUTCOMES.map((value) => ({ value, label: OUTCOME_LABELS[value] }))),
      options('outcome_class', 'Outcome class', [{ value: 'stored', label: 'Stored' }, { value: 'kept', label: 'Kept the old entry' }, { value: 'failed', label: 'Failed' }]),
      options('trigger', 'Trigger', RENDER_TRIGGERS.map((value) => ({ value, label: TRIGGER_LABELS[value] }))),
      options('mode', 'Mode', [{ value: 'render', label: 'Browser render' }, { value: 'bypass', label: 'Origin fetch' }]),
      text('reason', 'Reason'),
      numeric('status_code', 'Status code'),
      numeric('render_ms', 'Render time (ms)'),
      options('dimension', 'Cache dimension', dimensions.map((d) => ({ value: d.name, label: d.name }))),
    ],
    periods: { presets: ['24h', '7d', '14d', '28d', '30d', '90d'], customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: true, maxRangeDays: MAX_RANGE_DAYS },
  };
}

/** The catalog of a configured website: a website is one host (`websites[].host_id`). */
export function rendersCatalogOf(config: Pick<AppConfig, 'websites' | 'hosts'>, websiteId: string): RendersDef {
  const website = config.websites.find((w) => w.id === websiteId);
  if (!website) throw new AppError('NOT_FOUND', `unknown website ${websiteId}`);
  const host = config.hosts.find((h) => h.host_id === website.host_id);
  return rendersCatalog(website.host_id, (host?.dimensions ?? []).map((d) => ({ id: d.id, name: d.name })));
}

export function isRendersDef(explorer: ExplorerDef): explorer is RendersDef {
  return explorer.key === RENDERS_KEY;
}
