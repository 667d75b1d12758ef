/** The one-line summaries a model reads first: what came back and what to do next, in a sentence or two. */

type Row = Record<string, unknown>;
const object = (value: unknown) => (value && typeof value === 'object' ? value : {}) as Row;

/** `_rowId` is the dashboard's row key (it repeats the page or the request id): it only costs a model context. */
export function withoutRowIds(rows: readonly unknown[]): Row[] {
  return rows.map((row) => Object.fromEntries(Object.entries(object(row)).filter(([key]) => key !== '_rowId')));
}

/** The page after `meta.page`, or null on the last (or only) page. */
export function nextPageOf(meta: Row): number | null {
  const page = Number(meta.page);
  const totalPages = Number(meta.totalPages);
  return Number.isInteger(page) && page < totalPages ? page + 1 : null;
}

/** query_explorer's summary: rows of total, what ran (and against which comparison window), how to get more. */
export function querySummary(rowCount: number, meta: Row, nextPage: number | null): string {
  const window = object(meta.window);
  const ran = `${meta.explorerKey}/${meta.mode}, window ${window.start} to ${window.end}`;
  const compWindow = object(meta.compWindow);
  const compared = meta.compWindow === undefined ? '' : `, ${meta.compCategory ? `${meta.compCategory} pages ` : ''}against ${compWindow.start} to ${compWindow.end}`;
  if (Number(meta.total) === 0) return `No rows match (${ran}${compared}).`;
  const next = nextPage === null ? 'This is the last page.' : `More: call query_explorer again with the same arguments and page=${nextPage}.`;
  return `${rowCount} row(s) of ${String(meta.total)} (${ran}${compared}; page ${meta.page} of ${meta.totalPages}, sorted by ${meta.sort} ${meta.sortDir}). ${next}`;
}

const SERIES_IN_SUMMARY = 10;

/** A time series in a few words per series: first and last point, lowest and highest, so a drop shows without reading the points. */
export function seriesDigest(series: readonly unknown[]): string {
  const parts = series.slice(0, SERIES_IN_SUMMARY).map((entry) => {
    const { key, points } = object(entry);
    const values = (Array.isArray(points) ? points : []).map((p) => object(p).v).filter((v): v is number => typeof v === 'number');
    if (values.length === 0) return `${String(key)}: no data`;
    return `${String(key)}: ${values[0]} → ${values[values.length - 1]} (min ${Math.min(...values)}, max ${Math.max(...values)})`;
  });
  const more = series.length > SERIES_IN_SUMMARY ? `; ${series.length - SERIES_IN_SUMMARY} more series in the data` : '';
  return parts.join('; ') + more;
}

/** One queue's drain estimate in words (`GET …/cache/queue` drainEstimate.high|normal). */
export function drainPhrase({ seconds, completedPerMinute }: Row): string {
  if (seconds === null || seconds === undefined) return 'no estimate yet (nothing completed in the last 10 minutes)';
  // An empty queue has nothing to drain: "about 0 s at 0/min" would read like a stalled queue.
  return seconds === 0 ? 'nothing waiting' : `about ${String(seconds)} s at ${String(completedPerMinute)}/min`;
}
