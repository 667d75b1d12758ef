import type { Row } from '@bpc/explorer-store';

/** Rows per table, filled by `explorerRows`. */
export type TableRows = Map<string, Row[]>;

/** Adds `row` to `table`'s rows. */
export function push(into: TableRows, table: string, row: Row): void {
  const rows = into.get(table);
  if (rows) rows.push(row);
  else into.set(table, [row]);
}
