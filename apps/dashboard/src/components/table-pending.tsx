/** A table's header row and the pager under it, in rem, as styles.css draws them. */
const HEADER_AND_PAGER_REM = 5;

/**
 * The place of a table whose rows are on their way, as high as `rows` rows
 * of `rowHeight` rem with their header and pager: the page does not shift
 * when they arrive (Lighthouse counts such shifts as CLS).
 */
export function TablePending({ rows, rowHeight }: { rows: number; rowHeight: number }) {
  return (
    <div className="table-pending" style={{ minHeight: `${rows * rowHeight + HEADER_AND_PAGER_REM}rem` }} role="status">
      Loading…
    </div>
  );
}
