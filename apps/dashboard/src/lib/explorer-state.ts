import type { CompCategory, DiscoveryDocument, DiscoveryEntry, DiscoveryFilter, ExplorerEntry, DiscoveryMode, ExplorerFilterBody, ExportBody, QueryBody, SortDir } from '../api/types';

/**
 * The Data Explorer's view state, as it lives in the URL's query string (so
 * a view can be bookmarked and shared), and the query body it stands for.
 * Values are kept as typed (strings) until the body is made.
 */
export interface FilterState {
  field: string;
  op?: string;
  val?: string;
  val2?: string;
}

/** The query body's fields, with the explorer it goes to and its filters as typed. */
export interface ExplorerState extends Omit<QueryBody, 'filters'> {
  explorer?: string;
  filters: FilterState[];
}

/** The comparison mode's page categories (`compCategory`). */
export const COMP_CATEGORIES: readonly CompCategory[] = ['new', 'returning', 'lost'];

/** Operators taking an upper bound (`val2`): discovery lists operators but not their arity, the API documents this one. */
export const RANGE_OPERATORS: readonly string[] = ['between'];

const positiveInt = (raw: string | null): number | undefined => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined);
const text = (raw: string | null): string | undefined => (raw ? raw : undefined);

/** `f` holds one filter as a compact JSON array `[field, op, val, val2]`: any value (commas, pipes) survives. */
function parseFilter(raw: string): FilterState | undefined {
  try {
    const parts: unknown = JSON.parse(raw);
    if (!Array.isArray(parts) || typeof parts[0] !== 'string') return undefined;
    const [field, op, val, val2] = parts.map((p) => (p === null || p === undefined ? undefined : String(p)));
    return { field: field!, ...(op ? { op } : {}), ...(val !== undefined ? { val } : {}), ...(val2 !== undefined ? { val2 } : {}) };
  } catch {
    return undefined;
  }
}

function serializeFilter(filter: FilterState): string {
  const parts: (string | null)[] = [filter.field, filter.op ?? null, filter.val ?? null, filter.val2 ?? null];
  while (parts.length > 1 && parts[parts.length - 1] === null) parts.pop();
  return JSON.stringify(parts);
}

export function parseExplorerState(params: URLSearchParams): ExplorerState {
  const dir = params.get('sortDir');
  const columns = params.get('columns');
  return {
    explorer: text(params.get('explorer')),
    mode: text(params.get('mode')),
    columns: columns ? columns.split(',').filter(Boolean) : undefined,
    filters: params.getAll('f').map(parseFilter).filter((f): f is FilterState => f !== undefined),
    period: text(params.get('period')),
    compPeriod: text(params.get('compPeriod')),
    compCategory: COMP_CATEGORIES.find((c) => c === params.get('compCategory')),
    sort: text(params.get('sort')),
    sortDir: dir === 'asc' || dir === 'desc' ? dir : undefined,
    page: positiveInt(params.get('page')),
    perPage: positiveInt(params.get('perPage')),
  };
}

export function explorerSearchParams(state: ExplorerState): URLSearchParams {
  const params = new URLSearchParams();
  const put = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') params.set(key, String(value));
  };
  put('explorer', state.explorer);
  put('mode', state.mode);
  if (state.columns?.length) params.set('columns', state.columns.join(','));
  for (const filter of state.filters) params.append('f', serializeFilter(filter));
  put('period', state.period);
  put('compPeriod', state.compPeriod);
  put('compCategory', state.compCategory);
  put('sort', state.sort);
  put('sortDir', state.sortDir);
  if (state.page && state.page > 1) put('page', state.page);
  put('perPage', state.perPage);
  return params;
}

/** The explorer the state names, else the first discovery lists. */
export function chosenExplorer(discovery: DiscoveryDocument, state: ExplorerState): ExplorerEntry | undefined {
  return discovery.explorers.find((e) => e.key === state.explorer) ?? discovery.explorers[0];
}

/** The mode the state names, else the explorer's default mode. */
export function chosenMode(explorer: DiscoveryEntry, state: ExplorerState): DiscoveryMode | undefined {
  return explorer.modes.find((m) => m.key === state.mode) ?? explorer.modes.find((m) => m.default) ?? explorer.modes[0];
}

/**
 * A filter's value as the API wants it: numbers for number filters when the
 * text is a number (else the text as typed, so the API's refusal names the
 * control), no value for a valueless operator, `val2` for a range only.
 */
export function filterBody(filter: FilterState, definition: DiscoveryFilter | undefined): ExplorerFilterBody {
  const body: ExplorerFilterBody = { field: filter.field };
  const op = filter.op ?? definition?.operators[0];
  if (filter.op) body.op = filter.op;
  if (op && definition?.valuelessOperators.includes(op)) return body;
  const value = (raw: string | undefined) => {
    if (raw === undefined) return undefined;
    const trimmed = definition?.type === 'number' ? raw.trim() : raw;
    return definition?.type === 'number' && trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
  };
  const val = value(filter.val);
  if (val !== undefined) body.val = val;
  if (op && RANGE_OPERATORS.includes(op)) {
    const val2 = value(filter.val2);
    if (val2 !== undefined) body.val2 = val2;
  }
  return body;
}

/** The query body for the state: only what the state says (the API resolves every default and reports it in `meta`). */
export function queryBody(state: ExplorerState, mode: DiscoveryMode | undefined): QueryBody {
  const body: QueryBody = {};
  if (state.mode) body.mode = state.mode;
  if (state.columns?.length) body.columns = state.columns;
  if (state.filters.length) body.filters = state.filters.map((f) => filterBody(f, mode?.filters.find((d) => d.field === f.field)));
  if (state.period) body.period = state.period;
  if (state.compPeriod) body.compPeriod = state.compPeriod;
  if (state.compCategory) body.compCategory = state.compCategory;
  if (state.sort) body.sort = state.sort;
  if (state.sortDir) body.sortDir = state.sortDir;
  if (state.page && state.page > 1) body.page = state.page;
  if (state.perPage) body.perPage = state.perPage;
  return body;
}

/** The export of the same question: the query body without paging. */
export function exportBody(state: ExplorerState, mode: DiscoveryMode | undefined): ExportBody {
  const { page: _page, perPage: _perPage, ...rest } = queryBody(state, mode);
  return { ...rest, waitSeconds: 0 };
}

/** Sorting by a header: the same column flips its direction, another starts descending. */
export function nextSort(column: string, current: { sort: string; sortDir: SortDir }): Pick<ExplorerState, 'sort' | 'sortDir' | 'page'> {
  if (current.sort === column) return { sort: column, sortDir: current.sortDir === 'desc' ? 'asc' : 'desc', page: undefined };
  return { sort: column, sortDir: 'desc', page: undefined };
}

/** Every control of the explorer form an error `field` can name (error-fields.ts picks the nearest). */
export function explorerControls(filterCount: number): string[] {
  const controls = ['explorer', 'mode', 'columns', 'filters', 'period', 'compPeriod', 'compCategory', 'sort', 'sortDir', 'page', 'perPage'];
  for (let i = 0; i < filterCount; i++) controls.push(`filters[${i}]`, `filters[${i}].field`, `filters[${i}].op`, `filters[${i}].val`, `filters[${i}].val2`);
  return controls;
}
