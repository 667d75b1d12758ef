/** Daily search performance per grain (002_search_performance.sql): the search explorers and the insights read them. */
export const SEARCH_TABLES = { page: 'search_page_daily', query: 'search_query_daily' } as const;

export type SearchGrain = keyof typeof SEARCH_TABLES;

/** One row per imported day and grain: which import of a day is its latest. */
export const SEARCH_DAY_IMPORTS_TABLE = 'search_day_imports';

/** One row of a grain's table: `url` for pages, `query` for keywords. */
export type SearchDayRow = {
  readonly website: string;
  readonly date: string;
  readonly clicks: number;
  readonly impressions: number;
  readonly position: number;
  readonly imported_at: string;
} & ({ readonly url: string } | { readonly query: string });

export type SearchDayImportRow = {
  readonly website: string;
  readonly grain: SearchGrain;
  readonly date: string;
  readonly imported_at: string;
};

/**
 * Only the latest import of each day counts: a re-import replaces the day,
 * including keys it no longer lists. Reads `{website}`, `{startDate}` and `{endDate}`.
 */
export function latestImportSql(grain: SearchGrain): string {
  return `(date, imported_at) IN (SELECT date, max(imported_at) FROM ${SEARCH_DAY_IMPORTS_TABLE} WHERE website = {website:String} AND grain = '${grain}' AND date >= {startDate:Date} AND date < {endDate:Date} GROUP BY date)`;
}
