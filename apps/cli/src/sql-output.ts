import { assertNever } from '@bpc/domain';
import type { SqlOutputFormat } from './cli-args';

/** What `POST /internal/admin/sql` answers: JSON rows, or the engine's CSV text. */
type SqlResult = { rows: Record<string, unknown>[]; rowCount: number } | string;

/** The statement's result as the operator asked for it: an aligned table, the engine's CSV, or JSON rows. */
export function renderSqlResult(format: SqlOutputFormat, result: SqlResult): string {
  switch (format) {
    case 'csv':
      return typeof result === 'string' ? result.replace(/\n$/, '') : '';
    case 'json':
      return JSON.stringify(typeof result === 'string' ? result : result.rows, null, 2);
    case 'table':
      return typeof result === 'string' ? result : textTable(result.rows);
    default:
      return assertNever(format);
  }
}

/** Columns padded to their widest value, numbers right-aligned, NULL for null, then the row count. */
export function textTable(rows: readonly Record<string, unknown>[]): string {
  const footer = `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`;
  if (rows.length === 0) return footer;
  const columns = Object.keys(rows[0]);
  const cells = rows.map((row) => columns.map((column) => cellText(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i].length)));
  const numeric = columns.map((column) => rows.some((row) => typeof row[column] === 'number') && rows.every((row) => row[column] === null || typeof row[column] === 'number'));
  const line = (values: readonly string[], alignRight: readonly boolean[]) =>
    values.map((value, i) => (alignRight[i] ? value.padStart(widths[i]) : value.padEnd(widths[i]))).join(' | ').trimEnd();
  return [
    line(columns, numeric),
    widths.map((width) => '-'.repeat(width)).join('-+-'),
    ...cells.map((row) => line(row, numeric)),
    footer,
  ].join('\n');
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return value.replace(/[\r\n\t]/g, ' ');
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}
