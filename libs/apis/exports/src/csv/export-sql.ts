import { buildQuerySql, columnsOf, ResolvedQuery } from '@bpc/explorer';
import { EXPORT_TIME_LIMIT_S, settingsClause } from '@bpc/explorer-store';

/**
 * Settings of the export SELECT: RFC 4180 line ends (CRLF) and empty cells for
 * NULL instead of ClickHouse's `\N`. In the query's own SETTINGS clause so
 * they never leak into other statements of a pooled connection.
 */
const CSV_SETTINGS = { output_format_csv_crlf_end_of_line: 1, format_csv_null_representation: '' };

/**
 * Bounds on the export query's working memory, for chDB, where that memory is
 * this process's own, on the first export as on later ones. The explorer's
 * window is sorted whole (newest first) before `LIMIT maxRows`: in memory,
 * the 2.5M candidate rows of a 90-day window took ~230 MB. Here each sorting
 * thread spills sorted runs to the engine's tmp directory beyond 32 MB (the
 * ratio form of that limit, on by default, is switched off: while on, it is
 * the one applied), at most two threads run whatever the host's core count,
 * and blocks of 8,192 rows and 128 KB buffers per spilled run keep the merge
 * of the runs small. Same rows, same order; the engine takes ~1.4x as long
 * (`npm run bench -- exports` measures both). A time bound (5 min) keeps a
 * runaway export from holding chDB's one statement at a time.
 */
export const EXPORT_RESOURCE_SETTINGS: Readonly<Record<string, number>> = {
  max_threads: 2,
  max_block_size: 8192,
  max_bytes_before_external_sort: 32 * 1024 * 1024,
  max_bytes_ratio_before_external_sort: 0,
  temporary_files_buffer_size: 128 * 1024,
  max_execution_time: EXPORT_TIME_LIMIT_S,
};

/** A ClickHouse server keeps the time bound only (and the client waits that long: see open-ports). */
const SERVER_EXPORT_SETTINGS: Readonly<Record<string, number>> = { max_execution_time: EXPORT_TIME_LIMIT_S };

/**
 * The memory bounds apply to an engine in this process (chDB) only: a
 * ClickHouse server's memory is not this process's, the server bounds it
 * itself, and a 24.x server refuses settings it does not know yet (the ratio
 * above came with 25.1). The time bound applies to both.
 */
export function exportResourceSettings(inProcess: boolean): Readonly<Record<string, number>> {
  return inProcess ? EXPORT_RESOURCE_SETTINGS : SERVER_EXPORT_SETTINGS;
}

/**
 * Text that a spreadsheet would run as a formula starts with one of
 * `= + - @ TAB CR`; such cells get a leading `'` (OWASP CSV injection).
 * Done by ClickHouse per string column (first character in a constant set) so the bytes never need parsing here.
 */
const FORMULA_STARTS = "('=', '+', '-', '@', '\\t', '\\r')";

/**
 * The unpaged export query: the explorer's (or render history's) own query (same validation, same
 * filters, same order, `_rowId` tie-break) with `LIMIT maxRows`, wrapped in a
 * projection that keeps only the requested columns, in their order, named by
 * their keys (the CSV header), datetimes as ISO 8601 UTC and string cells
 * neutralised. Inner columns are renamed `c<i>` first so no output alias
 * shadows the column it is computed from.
 */
export function buildExportSql(
  query: ResolvedQuery,
  websiteId: string,
  /** `exportResourceSettings(store.inProcess)`: the bounds apply to chDB only. */
  resources: Readonly<Record<string, number>>,
): { sql: string; params: Record<string, unknown> } {
  const inner = buildQuerySql({ ...query, page: 1, perPage: query.perPage }, websiteId);
  const types = new Map(columnsOf(query.explorer, query.mode.key).map((c) => [c.key, c.dataType]));
  const renamed = query.columns.map((column, i) => `${column} AS c${i}`).join(', ');
  const projected = query.columns
    .map((column, i) => {
      const c = `c${i}`;
      switch (types.get(column)) {
        case 'string':
          return `if(substring(${c}, 1, 1) IN ${FORMULA_STARTS}, concat('''', ${c}), ${c}) AS ${column}`;
        case 'datetime':
          return `concat(replaceOne(toString(fromUnixTimestamp64Milli(toInt64(${c}), 'UTC')), ' ', 'T'), 'Z') AS ${column}`;
        default:
          return `${c} AS ${column}`;
      }
    })
    .join(', ');
  return { sql: `SELECT ${projected} FROM (SELECT ${renamed} FROM (${inner.pageSql})) SETTINGS ${settingsClause({ ...CSV_SETTINGS, ...resources })}`, params: inner.params };
}
