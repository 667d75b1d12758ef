import { describe, expect, it } from 'vitest';
import type { DiscoveryMode } from '../api/types';
import { explorerSearchParams, exportBody, filterBody, nextSort, parseExplorerState, queryBody, type ExplorerState } from './explorer-state';

const mode: DiscoveryMode = {
  key: 'requests',
  default: true,
  columns: [],
  defaults: { columns: ['page'], sort: 'event_date_time', sortDir: 'desc', period: '30d' },
  filters: [
    { field: 'url', title: 'URL', type: 'string', required: false, modes: ['requests'], operators: ['contains', 'regex', 'empty', 'not_empty'], valuelessOperators: ['empty', 'not_empty'] },
    { field: 'status_code', title: 'Status code', type: 'number', required: false, modes: ['requests'], operators: ['eq', 'between'], valuelessOperators: [] },
    { field: 'cache_status', title: 'Cache status', type: 'enum', required: false, modes: ['requests'], operators: ['eq', 'ne'], valuelessOperators: [], options: [{ value: 'hit', label: 'Hit' }] },
  ],
};

describe('the explorer state in the URL', () => {
  const state: ExplorerState = {
    explorer: 'events',
    mode: 'comparison',
    columns: ['page', 'requests'],
    filters: [
      { field: 'url', op: 'regex', val: '^/blog/(a|b),c' },
      { field: 'status_code', op: 'between', val: '200', val2: '299' },
      { field: 'url', op: 'empty' },
    ],
    period: '2026-11-01,2026-11-07',
    compPeriod: '7d',
    compCategory: 'lost',
    sort: 'requests',
    sortDir: 'asc',
    page: 3,
    perPage: 50,
  };

  it('survives a round trip through the query string, values with commas and pipes included', () => {
    const query = explorerSearchParams(state).toString();
    expect(parseExplorerState(new URLSearchParams(query))).toEqual(state);
  });

  it('leaves out what the state does not say, page 1 included', () => {
    expect(explorerSearchParams({ filters: [], page: 1 }).toString()).toBe('');
    expect(parseExplorerState(new URLSearchParams(''))).toEqual({
      explorer: undefined, mode: undefined, columns: undefined, filters: [], period: undefined, compPeriod: undefined, compCategory: undefined, sort: undefined, sortDir: undefined, page: undefined, perPage: undefined,
    });
  });

  it('drops what is not well formed instead of failing', () => {
    const parsed = parseExplorerState(new URLSearchParams('f=not-json&f=%5B1%5D&sortDir=up&compCategory=old&page=-2&perPage=abc'));
    expect(parsed.filters).toEqual([]);
    expect(parsed.sortDir).toBeUndefined();
    expect(parsed.compCategory).toBeUndefined();
    expect(parsed.page).toBeUndefined();
    expect(parsed.perPage).toBeUndefined();
  });
});

describe('the query body', () => {
  it('sends only what the state says: the API resolves the defaults', () => {
    expect(queryBody({ filters: [] }, mode)).toEqual({});
    expect(queryBody({ filters: [], page: 2, perPage: 25, sort: 'bytes', sortDir: 'asc', period: '7d' }, mode)).toEqual({ page: 2, perPage: 25, sort: 'bytes', sortDir: 'asc', period: '7d' });
  });

  it('sends numbers to number filters, and a text that is no number as typed (the API names the control)', () => {
    expect(filterBody({ field: 'status_code', op: 'eq', val: ' 404 ' }, mode.filters[1])).toEqual({ field: 'status_code', op: 'eq', val: 404 });
    expect(filterBody({ field: 'status_code', op: 'eq', val: 'abc' }, mode.filters[1])).toEqual({ field: 'status_code', op: 'eq', val: 'abc' });
    expect(filterBody({ field: 'status_code', op: 'between', val: '200', val2: '299' }, mode.filters[1])).toEqual({ field: 'status_code', op: 'between', val: 200, val2: 299 });
  });

  it('sends no value for a valueless operator, and no val2 but for a range', () => {
    expect(filterBody({ field: 'url', op: 'empty', val: 'left over' }, mode.filters[0])).toEqual({ field: 'url', op: 'empty' });
    expect(filterBody({ field: 'url', op: 'contains', val: 'blog', val2: 'x' }, mode.filters[0])).toEqual({ field: 'url', op: 'contains', val: 'blog' });
    expect(filterBody({ field: 'cache_status', val: 'hit' }, mode.filters[2])).toEqual({ field: 'cache_status', val: 'hit' });
  });

  it('exports the same question without paging, answering at once', () => {
    expect(exportBody({ filters: [{ field: 'url', val: 'a' }], page: 4, perPage: 10, period: '7d' }, mode)).toEqual({ filters: [{ field: 'url', val: 'a' }], period: '7d', waitSeconds: 0 });
  });

  it('sorts by a header: the same column flips, another starts descending, back to page 1', () => {
    expect(nextSort('requests', { sort: 'requests', sortDir: 'desc' })).toEqual({ sort: 'requests', sortDir: 'asc', page: undefined });
    expect(nextSort('requests', { sort: 'requests', sortDir: 'asc' })).toEqual({ sort: 'requests', sortDir: 'desc', page: undefined });
    expect(nextSort('bytes', { sort: 'requests', sortDir: 'asc' })).toEqual({ sort: 'bytes', sortDir: 'desc', page: undefined });
  });
});
