import { memo, useLayoutEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import type { DiscoveryColumn, Row, SortDir } from '../api/types';
import { formatInteger, formatNumber, formatPercent } from '../lib/format';
import { Time } from './time';

interface DataTableProps {
  /** Discovery's columns, in the order the rows carry them. */
  columns: DiscoveryColumn[];
  rows: Row[];
  sort?: string;
  sortDir?: SortDir;
  /** Sorting is the API's (the whole window, not this page): a header click asks for it. */
  onSort?: (column: string) => void;
  caption: string;
  /** Called once the rows are in the DOM (before paint), for the render bench's timing. */
  onRendered?: (rowCount: number) => void;
  /** Where a page URL leads (the Renders page: the URL's cache lookup); absent, the URL is plain text. */
  pageHref?: (url: string) => string;
  /** Where a page URL's SEO view is (the Renders page); absent, no such link. */
  seoHref?: (url: string) => string;
  /** Where a recache receipt is followed (the Renders page's `receipt` column); absent, its id is plain text. */
  receiptHref?: (receiptId: string) => string;
}

type CellLinks = Pick<DataTableProps, 'pageHref' | 'seoHref' | 'receiptHref'>;

const NUMERIC = new Set(['integer', 'number', 'percent']);

export function Cell({ column, row, pageHref, seoHref, receiptHref }: { column: DiscoveryColumn; row: Row } & CellLinks) {
  const value = row[column.key];
  if (value === null || value === undefined || value === '') return <span className="muted">–</span>;
  if (column.key === 'receipt' && receiptHref) {
    return (
      <Link to={receiptHref(String(value))} title={`Receipt ${String(value)}`} aria-label={`Recache receipt ${String(value)}`}>
        Receipt
      </Link>
    );
  }
  if (column.dataType === 'datetime' && typeof value === 'string') return <Time iso={value} />;
  if (column.dataType === 'percent' && typeof value === 'number') return <>{formatPercent(value)}</>;
  if (column.dataType === 'integer' && typeof value === 'number') return <>{formatInteger(value)}</>;
  if (column.dataType === 'number' && typeof value === 'number') return <>{formatNumber(value)}</>;
  if (column.key === 'page') {
    const title = typeof row._title === 'string' && row._title ? row._title : undefined;
    return (
      <>
        {pageHref ? (
          <Link to={pageHref(String(value))} title={`What is cached for ${String(value)}`}>
            {String(value)}
          </Link>
        ) : (
          <span>{String(value)}</span>
        )}
        {title ? <span className="muted small block">{title}</span> : null}
        {seoHref ? (
          <Link className="small block" to={seoHref(String(value))} aria-label={`SEO health of ${String(value)}`}>
            SEO health
          </Link>
        ) : null}
      </>
    );
  }
  return <>{String(value)}</>;
}

/** One page of rows (at most the account's perPageMax, 500): plain rows, no virtualisation needed. Sorting by header, server-side. */
export const DataTable = memo(function DataTable({ columns, rows, sort, sortDir, onSort, caption, onRendered, pageHref, seoHref, receiptHref }: DataTableProps) {
  useLayoutEffect(() => onRendered?.(rows.length), [rows, onRendered]);
  const definitions = useMemo<ColumnDef<Row>[]>(
    () =>
      columns.map((column) => ({
        id: column.key,
        // An accessor, or the table treats the column as display-only and never sortable.
        accessorFn: (row: Row) => row[column.key],
        // Times show in the viewer's zone (UTC on hover), whatever the catalog's title says.
        header: column.dataType === 'datetime' ? column.title.replace(/\s*\(UTC\)$/, '') : column.title,
        enableSorting: column.sortable && !!onSort,
        cell: (context) => <Cell column={column} row={context.row.original} pageHref={pageHref} seoHref={seoHref} receiptHref={receiptHref} />,
        meta: column,
      })),
    [columns, onSort, pageHref, seoHref, receiptHref],
  );
  const sorting: SortingState = sort ? [{ id: sort, desc: sortDir !== 'asc' }] : [];
  const table = useReactTable({
    data: rows,
    columns: definitions,
    state: { sorting },
    manualSorting: true,
    enableSortingRemoval: false,
    getCoreRowModel: getCoreRowModel(),
    // `_rowId` is unique within a page (request id, URL, query text): rows a new sort keeps are moved, not rebuilt.
    getRowId: (row, index) => (row._rowId === undefined || row._rowId === null ? `#${index}` : String(row._rowId)),
  });
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const column = header.column.columnDef.meta as DiscoveryColumn;
                const sorted = header.column.getIsSorted();
                const label = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={NUMERIC.has(column.dataType) ? 'num' : undefined}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button type="button" onClick={() => onSort?.(column.key)} title={`Sort by ${column.title}`}>
                        {label}
                        <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => {
                const column = cell.column.columnDef.meta as DiscoveryColumn;
                return (
                  <td key={cell.id} className={NUMERIC.has(column.dataType) ? 'num' : column.key === 'page' ? 'url' : undefined}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                );
              })}
            </tr>
          ))}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="muted">
                No rows in this window with these filters.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
});
