import { columnsOf, companionsOf } from '../catalog/explorer-catalog';
import type { ResolvedQuery } from '../resolve-query/resolve-query';
import type { ExplorerQueryMeta, ExplorerRow } from './run-explorer-query.query';

/** A result row as the API returns it: requested columns, their companions, `_rowId`; datetimes as ISO strings. */
export function shapeRow(query: ResolvedQuery, raw: Record<string, unknown>, extras?: Record<string, unknown>): ExplorerRow {
  const types = new Map(columnsOf(query.explorer, query.mode.key).map((c) => [c.key, c.dataType]));
  const row: ExplorerRow = {};
  for (const column of query.columns) {
    const value = raw[column];
    row[column] = types.get(column) === 'datetime' && typeof value === 'number' ? new Date(value).toISOString() : (value ?? null);
    for (const companion of companionsOf(query.explorer, column)) row[companion] = raw[companion] ?? extras?.[companion] ?? null;
  }
  row._rowId = String(raw._rowId);
  return row;
}

export function queryMeta(query: ResolvedQuery, total: number, totalPages: number): ExplorerQueryMeta {
  const window = { start: query.window.start.toISOString(), end: query.window.end.toISOString() };
  return {
    explorerKey: query.explorer.key,
    mode: query.mode.key,
    page: query.page,
    perPage: query.perPage,
    total,
    totalPages,
    columns: [...query.columns],
    sort: query.sort,
    sortDir: query.sortDir,
    period: query.period,
    window,
    ...(query.comparison
      ? {
          compPeriod: query.comparison.period,
          compWindow: { start: query.comparison.window.start.toISOString(), end: query.comparison.window.end.toISOString() },
          compCategory: query.comparison.category,
        }
      : {}),
  };
}
