import { assertNever, validationError } from '@bpc/domain';
import {
  COMP_CATEGORIES,
  CompCategory,
  columnsOf,
  DEFAULT_COMP_CATEGORY,
  defaultMode,
  ExplorerDef,
  ExplorerLimits,
  FilterDef,
  filtersOf,
  MAX_FILTER_TEXT,
  ModeDef,
  Operator,
  RANGE_OPERATORS,
  SORT_DIRS,
  SortDir,
} from '../catalog/explorer-catalog';
import { regexPatternProblem } from '../filters/regex-pattern';
import { describeWindow, previousWindow, resolvePeriod, TimeWindow } from '../periods/periods';
import type { QueryBody, QueryFilterInput } from './query-body';

export interface ResolvedFilter {
  readonly field: string;
  readonly op: Operator;
  readonly val?: string | number;
  readonly val2?: number;
}

/** A query with every default resolved and every rule checked: what runs, and what `meta` reports. */
export interface ResolvedQuery {
  readonly explorer: ExplorerDef;
  readonly mode: ModeDef;
  readonly columns: readonly string[];
  readonly filters: readonly ResolvedFilter[];
  readonly period: string;
  readonly window: TimeWindow;
  /** `asked`: false when `compPeriod` was omitted and `period` is the window just before the main one. */
  readonly comparison?: { readonly period: string; readonly asked: boolean; readonly window: TimeWindow; readonly category: CompCategory };
  readonly sort: string;
  readonly sortDir: SortDir;
  readonly page: number;
  readonly perPage: number;
}

/**
 * Checks a query body against the catalog and resolves its defaults. Refuses
 * (VALIDATION_FAILED naming the parameter) whatever it cannot honour; it never
 * substitutes a workable value. `page` is checked against the total later.
 */
export function resolveQuery(explorer: ExplorerDef, body: QueryBody, nowMs: number, limits: ExplorerLimits): ResolvedQuery {
  const mode = resolveMode(explorer, body.mode);
  const columns = resolveColumns(explorer, mode, body.columns);
  const filters = (body.filters ?? []).map((filter, i) => resolveFilter(explorer, mode, filter, `filters[${i}]`));
  for (const required of filtersOf(explorer, mode.key).filter((f) => f.required)) {
    if (!filters.some((f) => f.field === required.field)) throw validationError('filters', `a ${required.field} filter is required`);
  }
  // Reported as it ran: the parts trimmed, as the parser reads them.
  const period = (body.period ?? mode.defaults.period).split(',').map((part) => part.trim()).join(',');
  const window = resolvePeriod(period, explorer.periods, nowMs, 'period');
  const comparison = resolveComparison(explorer, mode, body, window, nowMs);

  const sortable = columnsOf(explorer, mode.key).filter((c) => c.sortable).map((c) => c.key);
  if (body.sort !== undefined && !sortable.includes(body.sort)) {
    throw validationError('sort', `sort must be a sortable column of the ${mode.key} mode: ${sortable.join(', ')}`);
  }
  if (body.sortDir !== undefined && !(SORT_DIRS as readonly string[]).includes(body.sortDir)) throw validationError('sortDir', 'sortDir must be "asc" or "desc"');
  const sort = body.sort ?? mode.defaults.sort;
  const sortDir = (body.sortDir as SortDir | undefined) ?? (body.sort !== undefined ? 'desc' : mode.defaults.sortDir);

  const perPage = body.perPage ?? limits.perPageDefault;
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > limits.perPageMax) throw validationError('perPage', `perPage must be an integer from 1 to ${limits.perPageMax}`);
  const page = body.page ?? 1;
  if (!Number.isSafeInteger(page) || page < 1) throw validationError('page', 'page must be an integer of 1 or more');
  // Far past any last page; refused here because the engine refuses an offset beyond 2^53 (it would answer 503, not this 400).
  if ((page - 1) * perPage > Number.MAX_SAFE_INTEGER) throw validationError('page', `page ${page} is past the last page`);

  return { explorer, mode, columns, filters, period, window, comparison, sort, sortDir, page, perPage };
}

/** After counting: a page past the last one is refused (page 1 of an empty result is not past the last). */
export function assertPageInRange(query: ResolvedQuery, total: number): number {
  const totalPages = Math.ceil(total / query.perPage);
  if (query.page > Math.max(1, totalPages)) throw validationError('page', `page ${query.page} is past the last page (${totalPages})`);
  return totalPages;
}

function resolveMode(explorer: ExplorerDef, requested: string | undefined): ModeDef {
  if (requested === undefined) return defaultMode(explorer);
  const mode = explorer.modes.find((m) => m.key === requested);
  if (!mode) {
    const keys = explorer.modes.map((m) => m.key);
    throw validationError('mode', keys.length === 1 ? `the ${explorer.key} explorer has the fixed mode ${keys[0]}` : `mode must be one of ${keys.join(', ')}`);
  }
  return mode;
}

function resolveColumns(explorer: ExplorerDef, mode: ModeDef, requested: readonly string[] | undefined): readonly string[] {
  if (requested === undefined) return mode.defaults.columns;
  if (requested.length === 0) throw validationError('columns', 'columns must not be empty (omit it for the defaults)');
  const known = new Set(columnsOf(explorer, mode.key).map((c) => c.key));
  const seen = new Set<string>();
  requested.forEach((column: unknown, i) => {
    if (typeof column !== 'string') throw validationError(`columns[${i}]`, 'each column must be a string');
    if (column.startsWith('_')) throw validationError(`columns[${i}]`, `${column} is an extra value rows carry; it cannot be requested`);
    if (!known.has(column)) throw validationError(`columns[${i}]`, `unknown column ${column} for the ${mode.key} mode`);
    if (seen.has(column)) throw validationError(`columns[${i}]`, `column ${column} is requested twice`);
    seen.add(column);
  });
  return requested;
}

function resolveComparison(explorer: ExplorerDef, mode: ModeDef, body: QueryBody, window: TimeWindow, nowMs: number): ResolvedQuery['comparison'] {
  if (!mode.comparisonWindow) {
    if (body.compPeriod !== undefined) throw validationError('compPeriod', `the ${mode.key} mode has no comparison window`);
    if (body.compCategory !== undefined) throw validationError('compCategory', `compCategory applies to the comparison mode of events only`);
    return undefined;
  }
  if (body.compCategory !== undefined && !(COMP_CATEGORIES as readonly string[]).includes(body.compCategory)) {
    throw validationError('compCategory', `compCategory must be one of ${COMP_CATEGORIES.join(', ')}`);
  }
  const category = (body.compCategory as CompCategory | undefined) ?? DEFAULT_COMP_CATEGORY;
  if (body.compPeriod === undefined) {
    const previous = previousWindow(window);
    return { period: describeWindow(previous), asked: false, window: previous, category };
  }
  return { period: body.compPeriod, asked: true, window: resolvePeriod(body.compPeriod, explorer.periods, nowMs, 'compPeriod', true), category };
}

function resolveFilter(explorer: ExplorerDef, mode: ModeDef, input: QueryFilterInput, at: string): ResolvedFilter {
  if (input.field === 'period') throw validationError(`${at}.field`, 'period is a top-level parameter, not a filter');
  const def = filtersOf(explorer, mode.key).find((f) => f.field === input.field);
  if (!def) {
    const fields = filtersOf(explorer, mode.key).map((f) => f.field);
    throw validationError(`${at}.field`, `unknown filter field ${input.field} for the ${mode.key} mode (filters: ${fields.join(', ')})`);
  }
  const op = (input.op ?? def.operators[0]) as Operator;
  if (!def.operators.includes(op)) throw validationError(`${at}.op`, `operator must be one of ${def.operators.join(', ')} for ${def.field}`);
  if (def.valuelessOperators.includes(op)) {
    if (input.val !== undefined) throw validationError(`${at}.val`, `the ${op} operator takes no val`);
    if (input.val2 !== undefined) throw validationError(`${at}.val2`, `the ${op} operator takes no val2`);
    return { field: def.field, op };
  }
  if (input.val === undefined || input.val === null) throw validationError(`${at}.val`, `the ${op} operator needs a val`);
  const isRange = RANGE_OPERATORS.includes(op);
  if (!isRange && input.val2 !== undefined) throw validationError(`${at}.val2`, `the ${op} operator takes no val2`);
  const val = filterValue(def, op, input.val, `${at}.val`);
  if (!isRange) return { field: def.field, op, val };
  if (input.val2 === undefined || input.val2 === null) throw validationError(`${at}.val2`, `the ${op} operator needs val2 (the upper bound)`);
  const val2 = filterValue(def, op, input.val2, `${at}.val2`) as number;
  if (val2 < (val as number)) throw validationError(`${at}.val2`, 'val2 must not be below val');
  return { field: def.field, op, val, val2 };
}

function filterValue(def: FilterDef, op: Operator, value: unknown, at: string): string | number {
  switch (def.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > 1e15) throw validationError(at, `${def.field} takes a finite number`);
      return value;
    case 'enum':
      if (typeof value !== 'string' || !def.options?.some((o) => o.value === value)) {
        throw validationError(at, `${def.field} must be one of ${(def.options ?? []).map((o) => o.value).join(', ')}`);
      }
      return value;
    case 'string': {
      if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FILTER_TEXT) throw validationError(at, `${def.field} takes a string of 1 to ${MAX_FILTER_TEXT} characters`);
      if (op === 'regex' || op === 'not_regex') {
        const problem = regexPatternProblem(value);
        if (problem) throw validationError(at, problem);
      }
      return value;
    }
    default:
      return assertNever(def.type);
  }
}
