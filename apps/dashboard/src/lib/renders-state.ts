import type { FilterBody, OutcomeClass, RendersExportBody, RendersQueryBody, RendersTimeseriesBody, RendersTimeseriesPoint, Row, Series, SortDir } from '../api/types';

/**
 * The Renders page's view state, in the URL's query string (bookmark it,
 * share it), and the render-history API bodies it stands for. Filters of the
 * whole page (period, trigger, URL contains) apply to the reasons, the charts
 * and the single renders; the outcome filters apply to the single renders.
 */
export interface RendersState {
  period?: string;
  trigger?: string;
  /** "URL contains". */
  url?: string;
  /** Which outcomes the reasons table shows: failed and kept (the default), one class, or all. */
  show: ReasonsShow;
  /** Single renders of one outcome class. */
  outcomeClass?: OutcomeClass;
  /** Single renders of one outcome and reason (a reasons row's drill-down); `reason: ''` is "no reason". */
  outcome?: string;
  reason?: string;
  sort?: string;
  sortDir?: SortDir;
  page?: number;
  perPage?: number;
}

export type ReasonsShow = 'problems' | OutcomeClass | 'all';

export const REASONS_SHOW: { value: ReasonsShow; label: string }[] = [
  { value: 'problems', label: 'Failed and kept the old page' },
  { value: 'failed', label: 'Failed only' },
  { value: 'kept', label: 'Kept the old page only' },
  { value: 'stored', label: 'Stored only' },
  { value: 'all', label: 'All outcomes' },
];

export const OUTCOME_CLASSES: { value: OutcomeClass; label: string }[] = [
  { value: 'failed', label: 'Failed (retry scheduled, gave up, failed)' },
  { value: 'kept', label: 'Kept the old page' },
  { value: 'stored', label: 'Stored' },
];

/** The columns the single renders table asks for: everything but the render mode, most telling first (a recache's receipt last). */
export const RENDER_COLUMNS = ['page', 'rendered_at', 'outcome', 'reason', 'trigger', 'dimension', 'status_code', 'render_ms', 'bytes', 'attempt', 'receipt'];
export const REASON_COLUMNS = ['outcome', 'reason', 'renders', 'pages', 'avg_render_ms', 'last_rendered_at'];
/** Reasons are few (outcome × reason): one page holds them. */
export const REASONS_PER_PAGE = 100;

const CLASSES: readonly string[] = ['stored', 'kept', 'failed'];
const SHOWS: readonly string[] = REASONS_SHOW.map((s) => s.value);
const positiveInt = (raw: string | null): number | undefined => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined);
const text = (raw: string | null): string | undefined => (raw ? raw : undefined);

export function parseRendersState(params: URLSearchParams): RendersState {
  const dir = params.get('sortDir');
  const cls = params.get('class');
  const show = params.get('show');
  return {
    period: text(params.get('period')),
    trigger: text(params.get('trigger')),
    url: text(params.get('url')),
    show: show && SHOWS.includes(show) ? (show as ReasonsShow) : 'problems',
    outcomeClass: cls && CLASSES.includes(cls) ? (cls as OutcomeClass) : undefined,
    outcome: text(params.get('outcome')),
    // Present but empty is a filter too: renders with no reason.
    reason: params.has('outcome') && params.has('reason') ? (params.get('reason') ?? '') : undefined,
    sort: text(params.get('sort')),
    sortDir: dir === 'asc' || dir === 'desc' ? dir : undefined,
    page: positiveInt(params.get('page')),
    perPage: positiveInt(params.get('perPage')),
  };
}

export function rendersSearchParams(state: RendersState): URLSearchParams {
  const params = new URLSearchParams();
  const put = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') params.set(key, String(value));
  };
  put('period', state.period);
  put('trigger', state.trigger);
  put('url', state.url);
  if (state.show !== 'problems') put('show', state.show);
  put('class', state.outcomeClass);
  if (state.outcome) {
    params.set('outcome', state.outcome);
    if (state.reason !== undefined) params.set('reason', state.reason);
  }
  put('sort', state.sort);
  put('sortDir', state.sortDir);
  if (state.page && state.page > 1) put('page', state.page);
  put('perPage', state.perPage);
  return params;
}

/** The filters of the whole page: trigger and URL contains. */
export function pageFilters(state: RendersState): FilterBody[] {
  const filters: FilterBody[] = [];
  if (state.trigger) filters.push({ field: 'trigger', op: 'eq', val: state.trigger });
  if (state.url) filters.push({ field: 'url', op: 'contains', val: state.url });
  return filters;
}

function withPeriod<T extends { period?: string }>(body: T, state: RendersState): T {
  if (state.period) body.period = state.period;
  return body;
}

/** Reasons grouped by outcome and reason, failures and kept pages by default (`outcome_class ne stored`); one page, within the account's `perPageMax`. */
export function reasonsBody(state: RendersState, perPageMax: number = REASONS_PER_PAGE): RendersQueryBody {
  const filters = pageFilters(state);
  if (state.show === 'problems') filters.push({ field: 'outcome_class', op: 'ne', val: 'stored' });
  else if (state.show !== 'all') filters.push({ field: 'outcome_class', op: 'eq', val: state.show });
  return withPeriod<RendersQueryBody>({ mode: 'reasons', columns: REASON_COLUMNS, filters, sort: 'renders', sortDir: 'desc', perPage: Math.min(REASONS_PER_PAGE, perPageMax) }, state);
}

/** The single renders of the drill-down: the page's filters plus outcome class, or one outcome and reason. */
export function rendersBody(state: RendersState): RendersQueryBody {
  const filters = pageFilters(state);
  if (state.outcomeClass) filters.push({ field: 'outcome_class', op: 'eq', val: state.outcomeClass });
  if (state.outcome) {
    filters.push({ field: 'outcome', op: 'eq', val: state.outcome });
    if (state.reason !== undefined) filters.push(state.reason === '' ? { field: 'reason', op: 'empty' } : { field: 'reason', op: 'equals', val: state.reason });
  }
  const body = withPeriod<RendersQueryBody>({ mode: 'renders', columns: RENDER_COLUMNS, filters }, state);
  if (state.sort) body.sort = state.sort;
  if (state.sortDir) body.sortDir = state.sortDir;
  if (state.page && state.page > 1) body.page = state.page;
  if (state.perPage) body.perPage = state.perPage;
  return body;
}

/** The export of the single renders shown: the same question without paging. */
export function rendersExportBody(state: RendersState): RendersExportBody {
  const { page: _page, perPage: _perPage, ...rest } = rendersBody(state);
  return { ...rest, filename: 'renders', waitSeconds: 0 };
}

export function rendersTimeseriesBody(state: RendersState): RendersTimeseriesBody {
  const filters = pageFilters(state);
  return withPeriod<RendersTimeseriesBody>({ ...(filters.length ? { filters } : {}) }, state);
}

/** `gave_up` → failed, `kept_blank` → kept, `stored` → stored (the API's outcome classes). */
export function outcomeClassOf(outcome: string): OutcomeClass {
  if (outcome === 'stored') return 'stored';
  if (outcome.startsWith('kept')) return 'kept';
  return 'failed';
}

const CLASS_ORDER: Record<OutcomeClass, number> = { failed: 0, kept: 1, stored: 2 };

/** Failures first, then pages kept, then stored; the most renders first within each. */
export function orderReasons(rows: Row[]): Row[] {
  const renders = (row: Row) => (typeof row.renders === 'number' ? row.renders : 0);
  return [...rows].sort((a, b) => CLASS_ORDER[outcomeClassOf(String(a.outcome))] - CLASS_ORDER[outcomeClassOf(String(b.outcome))] || renders(b) - renders(a));
}

/** The timeseries as chart series: renders by outcome class, and render time p50 / p95. */
export function rendersSeries(points: RendersTimeseriesPoint[]): { outcomes: Series[]; renderTime: Series[] } {
  if (points.length === 0) return { outcomes: [], renderTime: [] };
  const series = (key: string, value: (p: RendersTimeseriesPoint) => number | null): Series => ({ key, points: points.map((p) => ({ t: p.t, v: value(p) })) });
  return {
    outcomes: [series('failed', (p) => p.failed), series('kept old page', (p) => p.kept), series('stored', (p) => p.stored)],
    renderTime: [series('p50', (p) => p.renderMsP50), series('p95', (p) => p.renderMsP95)],
  };
}

/** A sort on a header: the same column flips its direction, another starts descending; back to page 1. */
export function nextRendersSort(column: string, current: { sort?: string; sortDir?: SortDir }): Pick<RendersState, 'sort' | 'sortDir' | 'page'> {
  if (current.sort === column) return { sort: column, sortDir: current.sortDir === 'desc' ? 'asc' : 'desc', page: undefined };
  return { sort: column, sortDir: 'desc', page: undefined };
}

/** The Renders page's controls an API refusal can be shown at. */
export type RendersControl = 'period' | 'trigger' | 'url' | 'outcomeClass' | 'show' | 'outcome' | 'sort' | 'page' | 'perPage';

const FILTER_CONTROLS: Record<string, RendersControl> = { trigger: 'trigger', url: 'url', outcome: 'outcome', reason: 'outcome' };

/**
 * The control a refusal's `field` names in a body this page sent:
 * `filters[i]…` is the control of the i-th filter sent (its `field` says which),
 * `period`, `sort`, `sortDir`, `page`, `perPage` their own. undefined: none (shown
 * at the top of the section).
 */
export function rendersErrorControl(body: RendersQueryBody | RendersTimeseriesBody, field: string | undefined, classControl: RendersControl = 'outcomeClass'): RendersControl | undefined {
  if (!field) return undefined;
  const filter = /^filters\[(\d+)\]/.exec(field);
  if (filter) {
    const sent = body.filters?.[Number(filter[1])];
    if (!sent) return undefined;
    return sent.field === 'outcome_class' ? classControl : FILTER_CONTROLS[sent.field];
  }
  const root = field.split(/[.[]/)[0];
  if (root === 'period' || root === 'page' || root === 'perPage') return root;
  if (root === 'sort' || root === 'sortDir') return 'sort';
  return undefined;
}

/** Outcomes in words: what happened to the cached page. */
export const OUTCOME_LABELS: Record<string, string> = {
  stored: 'stored',
  kept_blank: 'kept the old page: blank render',
  kept_timeout: 'kept the old page: timed out',
  kept_soft_404: 'kept the old page: soft 404',
  kept_smaller: 'kept the old page: much smaller render',
  kept_fresher: 'kept the old page: a fresher render was stored',
  retry_scheduled: 'failed, retry scheduled',
  gave_up: 'failed, gave up',
  failed: 'failed',
};

/** The render history of one URL (every outcome, the last 24 hours), from the pages that show a URL. */
export function renderHistoryPath(website: string, url: string): string {
  return `/w/${encodeURIComponent(website)}/renders?${rendersSearchParams({ show: 'all', url, period: '24h' }).toString()}`;
}

/** The Cache page following one recache receipt (`?receipt=`), from a render of one of its entries. */
export function receiptPath(website: string, receiptId: string): string {
  return `/w/${encodeURIComponent(website)}/cache?${new URLSearchParams({ receipt: receiptId }).toString()}`;
}

/** The Cache page with one URL's lookup open (every dimension), from the pages that show a URL. */
export function cacheLookupPath(website: string, url: string): string {
  return `/w/${encodeURIComponent(website)}/cache?${new URLSearchParams({ lookup: url }).toString()}`;
}
