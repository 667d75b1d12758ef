import { buildExplorerSql, columnsOf, ResolvedQuery } from '@bpc/explorer';

/**
 * Settings of the export SELECT: RFC 4180 line ends (CRLF) and empty cells for
 * NULL instead of ClickHouse's `\N`. In the query's own SETTINGS clause so
 * they never leak into other statements of a pooled connection.
 */
const CSV_SETTINGS = 'SETTINGS output_format_csv_crlf_end_of_line = 1, format_csv_null_representation = \'\'';

/**
 * Text that a spreadsheet would run as a formula starts with one of
 * `= + - @ TAB CR`; such cells get a leading `'` (OWASP CSV injection).
 * Done by ClickHouse per string column (first character in a constant set) so the bytes never need parsing here.
 */
const FORMULA_STARTS = "('=', '+', '-', '@', '\\t', '\\r')";

/**
 * The unpaged export query: the explorer's own query (same validation, same
 * filters, same order, `_rowId` tie-break) with `LIMIT maxRows`, wrapped in a
 * projection that keeps only the requested columns, in their order, named by
 * their keys (the CSV header), datetimes as ISO 8601 UTC and string cells
 * neutralised. Inner columns are renamed `c<i>` first so no output alias
 * shadows the column it is computed from.
 */
export function buildExportSql(query: ResolvedQuery, websiteId: string): { sql: string; params: Record<string, unknown> } {
  const inner = buildExplorerSql({ ...query, page: 1, perPage: query.perPage }, websiteId);
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
  return { sql: `SELECT ${projected} FROM (SELECT ${renamed} FROM (${inner.pageSql})) ${CSV_SETTINGS}`, params: inner.params };
}
