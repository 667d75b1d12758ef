import { AppError } from '@bpc/domain';
import { DEFAULT_LIMITS, EXPLORER_CATALOG, findExplorer } from '../catalog/explorer-catalog';
import { COLUMN_SQL } from '../sql/explorer-sql';
import { assertPageInRange, resolveQuery } from './resolve-query';
import type { QueryBody } from './query-body';

const now = Date.parse('2026-11-21T12:00:00.000Z');
const events = findExplorer('events')!;
const resolve = (body: QueryBody, explorer = events) => resolveQuery(explorer, body, now, DEFAULT_LIMITS);

function rejection(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return error.field;
    throw error;
  }
  return undefined;
}

describe('resolveQuery', () => {
  it('resolves {} to the defaults of the default mode', () => {
    const q = resolve({});
    expect({ mode: q.mode.key, columns: q.columns, sort: q.sort, sortDir: q.sortDir, period: q.period, page: q.page, perPage: q.perPage, comparison: q.comparison }).toEqual({
      mode: 'requests', columns: ['page', 'event_date_time', 'bot_name', 'serve_time'], sort: 'event_date_time', sortDir: 'desc', period: '30d', page: 1, perPage: 100, comparison: undefined,
    });
  });

  it('reports a custom period as it ran, trimmed', () => {
    expect(resolve({ period: ' 2026-11-01 , 2026-11-10 ' }).period).toBe('2026-11-01,2026-11-10');
  });

  it('defaults sortDir to desc whenever sort is passed, and keeps an explicit one', () => {
    expect(resolve({ sort: 'page' }).sortDir).toBe('desc');
    expect(resolve({ sort: 'page', sortDir: 'asc' }).sortDir).toBe('asc');
  });

  it('resolves the comparison defaults: previous window and category new', () => {
    const q = resolve({ mode: 'comparison', period: '2026-02-01,2026-02-28' });
    expect(q.comparison).toEqual({ period: '2026-01-04,2026-01-31', asked: false, window: { start: new Date('2026-01-04T00:00:00Z'), end: new Date('2026-02-01T00:00:00Z') }, category: 'new' });
  });

  it('gives each filter its default operator and checks values by type', () => {
    expect(resolve({ filters: [{ field: 'url', val: '/a' }, { field: 'status_code', val: 404 }] }).filters).toEqual([
      { field: 'url', op: 'contains', val: '/a' },
      { field: 'status_code', op: 'eq', val: 404 },
    ]);
    expect(rejection(() => resolve({ filters: [{ field: 'cache_status', val: 'warm' }] }))).toBe('filters[0].val');
    expect(rejection(() => resolve({ filters: [{ field: 'serve_time', op: 'between', val: 10, val2: 5 }] }))).toBe('filters[0].val2');
    expect(rejection(() => resolve({ filters: [{ field: 'url', op: 'equals', val: 'x', val2: 'y' }] }))).toBe('filters[0].val2');
    expect(rejection(() => resolve({ filters: [{ field: 'url', val: '' }] }))).toBe('filters[0].val');
    expect(rejection(() => resolve({ filters: [{ field: 'status_code', val: Infinity }] }))).toBe('filters[0].val');
  });

  it.each<[QueryBody, string]>([
    [{ columns: [] }, 'columns'],
    [{ columns: ['page', 'page'] }, 'columns[1]'],
    [{ columns: ['requests'] }, 'columns[0]'],
    [{ mode: 'unique_pages', sort: 'event_date_time' }, 'sort'],
    [{ perPage: 501 }, 'perPage'],
    [{ page: 0 }, 'page'],
    [{ sortDir: 'DESC' }, 'sortDir'],
  ])('refuses %j naming %s', (body, field) => {
    expect(rejection(() => resolve(body))).toBe(field);
  });

  it('accepts only the fixed mode on fixed-mode explorers', () => {
    const pages = findExplorer('search-pages')!;
    expect(resolve({ mode: 'search_pages' }, pages).mode.key).toBe('search_pages');
    expect(rejection(() => resolve({ mode: 'search_keywords' }, pages))).toBe('mode');
  });

  it('refuses a page past the last, but not page 1 of an empty result', () => {
    expect(assertPageInRange(resolve({}), 0)).toBe(0);
    expect(rejection(() => assertPageInRange(resolve({ page: 2 }), 0))).toBe('page');
    expect(assertPageInRange(resolve({ page: 2, perPage: 10 }), 11)).toBe(2);
    expect(rejection(() => assertPageInRange(resolve({ page: 3, perPage: 10 }), 20))).toBe('page');
  });
});

describe('catalog and SQL agree', () => {
  it('has SQL for every column of every mode, and every default is a column of its mode', () => {
    for (const explorer of EXPLORER_CATALOG) {
      for (const mode of explorer.modes) {
        const keys = explorer.columns.filter((c) => c.modes.includes(mode.key)).map((c) => c.key);
        for (const key of keys) expect({ mode: mode.key, key, sql: typeof COLUMN_SQL[mode.key][key] }).toEqual({ mode: mode.key, key, sql: 'string' });
        for (const column of mode.defaults.columns) expect(keys).toContain(column);
        expect(keys).toContain(mode.defaults.sort);
        expect(explorer.periods.presets).toContain(mode.defaults.period);
      }
    }
  });
});
