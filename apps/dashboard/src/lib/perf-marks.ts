/**
 * User Timing marks for the bench (issue 30: a 500-row explorer page rendered
 * within 200 ms of its data): `explorer-rows-render` measures from the
 * query's answer to the table's rows in the DOM. Read with
 * `performance.getEntriesByName('explorer-rows-render')`.
 */
export const ROWS_ARRIVED = 'explorer-rows-arrived';
export const ROWS_RENDER = 'explorer-rows-render';

export function markRowsArrived(): void {
  performance.clearMarks(ROWS_ARRIVED);
  performance.mark(ROWS_ARRIVED);
}

export function markRowsRendered(rowCount: number): void {
  if (performance.getEntriesByName(ROWS_ARRIVED, 'mark').length === 0) return;
  performance.measure(ROWS_RENDER, { start: ROWS_ARRIVED, detail: { rows: rowCount } });
  performance.clearMarks(ROWS_ARRIVED);
}
