import type { CriticalPagesFigures, NoindexAppearedFigures, PageRequestFigures, RenderFailureFigures } from '@bpc/domain';
import { BOT_REQUESTS_TABLE, type ExplorerStore, PAGE_CHANGES_MERGED_SQL, PAGE_CRITICAL_DAYS_TABLE, RENDER_OUTCOMES_TABLE } from '@bpc/explorer-store';

/** Outcomes that count as a failed render (the `failed` outcome class of the render history). */
const FAILED_OUTCOMES = ['retry_scheduled', 'gave_up', 'failed'];

/** Render failures of a host over [from, to), with the most frequent reasons. FINAL: a projected row written twice counts once. */
export async function renderFailureFigures(store: ExplorerStore, hostId: number, from: number, to: number): Promise<RenderFailureFigures> {
  const rows = await store.query<{ reason: string; renders: number }>(
    `SELECT reason, count() AS renders FROM ${RENDER_OUTCOMES_TABLE} FINAL
     WHERE host_id = {hostId:UInt32} AND ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)} AND outcome IN {outcomes:Array(String)}
     GROUP BY reason ORDER BY renders DESC, reason`,
    { hostId, from: new Date(from), to: new Date(to), outcomes: FAILED_OUTCOMES },
  );
  return { failures: rows.reduce((sum, r) => sum + Number(r.renders), 0), topReasons: rows.slice(0, 5).map((r) => ({ reason: r.reason, renders: Number(r.renders) })) };
}

/**
 * Per page of the website, bot requests in the window before [from, middle)
 * and in the last window [middle, to); only pages with at least
 * `minRequests` before and an error answer in the last window come back (the
 * rule decides; this only keeps the answer small). Without FINAL: it runs
 * every minute over two windows of a website's traffic, and a duplicate not
 * yet folded (a projector batch written twice) only adds a request to a
 * heuristic, where FINAL would triple the scan.
 */
export async function pageRequestFigures(store: ExplorerStore, website: string, from: number, middle: number, to: number, minRequests: number): Promise<PageRequestFigures[]> {
  const rows = await store.query<Record<keyof PageRequestFigures, string | number>>(
    `SELECT url,
            countIf(ts < {middle:DateTime64(3)}) AS beforeRequests,
            countIf(ts < {middle:DateTime64(3)} AND status_code >= 400) AS beforeErrors,
            countIf(ts >= {middle:DateTime64(3)}) AS recentRequests,
            countIf(ts >= {middle:DateTime64(3)} AND status_code >= 400) AS recentErrors,
            argMaxIf(status_code, ts, ts >= {middle:DateTime64(3)}) AS lastStatus
     FROM ${BOT_REQUESTS_TABLE}
     WHERE website = {website:String} AND ts >= {from:DateTime64(3)} AND ts < {to:DateTime64(3)}
     GROUP BY url
     HAVING beforeRequests >= {minRequests:UInt32} AND recentErrors > 0
     ORDER BY beforeRequests DESC, url
     LIMIT 1000`,
    { website, from: new Date(from), middle: new Date(middle), to: new Date(to), minRequests },
  );
  return rows.map((r) => ({
    url: String(r.url),
    beforeRequests: Number(r.beforeRequests),
    beforeErrors: Number(r.beforeErrors),
    recentRequests: Number(r.recentRequests),
    recentErrors: Number(r.recentErrors),
    lastStatus: Number(r.lastStatus),
  }));
}

const DAY_MS = 86_400_000;
/** URLs an SEO alert names as examples. */
const EXAMPLE_URLS = 5;

/**
 * Pages (URLs, any dimension) of a host whose `noindex` changed to `true`
 * with their latest change of the day in [from, to): from `page_changes`,
 * coalesced per day, read through its merge (exact: every state is idempotent).
 */
export async function noindexAppearedFigures(store: ExplorerStore, hostId: number, from: number, to: number): Promise<NoindexAppearedFigures> {
  const rows = await store.query<{ pages: number; examples: string[] }>(
    `SELECT uniqExact(url) AS pages, arraySlice(arraySort(groupUniqArray(url)), 1, ${EXAMPLE_URLS}) AS examples FROM (${PAGE_CHANGES_MERGED_SQL})
     WHERE field = 'noindex' AND after = 'true' AND changed_at >= {from:DateTime64(3)} AND changed_at < {to:DateTime64(3)}`,
    { hostId, from: new Date(from), to: new Date(to), startDate: new Date(from).toISOString().slice(0, 10), endDate: new Date(to + DAY_MS - 1).toISOString().slice(0, 10) },
  );
  return { pages: Number(rows[0]?.pages ?? 0), examples: rows[0]?.examples ?? [] };
}

/**
 * Pages (URL × dimension) of a host whose latest render of the UTC day of
 * `now` (so far) and of the day before found critical issues, and the pages
 * rendered on each day, from `page_critical_days` (FINAL: a row projected
 * twice counts once). Two days of one host: a small read, every minute.
 */
export async function criticalPagesFigures(store: ExplorerStore, hostId: number, now: number): Promise<CriticalPagesFigures> {
  const today = new Date(Math.floor(now / DAY_MS) * DAY_MS);
  const yesterday = new Date(today.getTime() - DAY_MS);
  const rows = await store.query<{ today: number; yesterday: number; renderedToday: number; renderedYesterday: number; examples: string[] }>(
    `SELECT countIf(day = {today:Date} AND critical_issues > 0) AS today, countIf(day = {yesterday:Date} AND critical_issues > 0) AS yesterday,
            countIf(day = {today:Date}) AS renderedToday, countIf(day = {yesterday:Date}) AS renderedYesterday,
            arraySlice(arraySort(groupUniqArrayIf(url, day = {today:Date} AND critical_issues > 0)), 1, ${EXAMPLE_URLS}) AS examples
     FROM ${PAGE_CRITICAL_DAYS_TABLE} FINAL
     WHERE host_id = {hostId:UInt32} AND day >= {yesterday:Date} AND day <= {today:Date}`,
    { hostId, today: today.toISOString().slice(0, 10), yesterday: yesterday.toISOString().slice(0, 10) },
  );
  const row = rows[0];
  return {
    today: Number(row?.today ?? 0),
    yesterday: Number(row?.yesterday ?? 0),
    renderedToday: Number(row?.renderedToday ?? 0),
    renderedYesterday: Number(row?.renderedYesterday ?? 0),
    examples: row?.examples ?? [],
  };
}
