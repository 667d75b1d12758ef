import type { InsightsSummaryFigures } from './insights.query';
import type { SummaryFiguresRow, SummaryPagesRow } from './insights-sql';

/** A share rounded like the explorer's percent columns (4 decimals), null without requests. */
function share(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

/** One window's figures from the statements' rows (`prefix` '' for the main window, 'comp_' for the comparison). */
export function summaryFigures(row: SummaryFiguresRow, pages: number, prefix: '' | 'comp_'): InsightsSummaryFigures {
  const read = (name: string): unknown => row[`${prefix}${name}`];
  const requests = Number(read('requests') ?? 0);
  const serveTime = (read('serve_time') as readonly number[] | undefined) ?? [];
  return {
    requests,
    pages,
    hitRate: share(Number(read('hits') ?? 0), requests),
    serveTimeP50Ms: requests === 0 ? null : Number(serveTime[0]),
    serveTimeP95Ms: requests === 0 ? null : Number(serveTime[1]),
    share4xx: share(Number(read('c4xx') ?? 0), requests),
    share5xx: share(Number(read('c5xx') ?? 0), requests),
    rendersFailed: Number(read('renders_failed') ?? 0),
  };
}

export const NO_PAGES: SummaryPagesRow = { pages: 0, comp_pages: 0, new_pages: 0, lost_pages: 0 };
