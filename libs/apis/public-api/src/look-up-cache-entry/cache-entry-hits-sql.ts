import { BOT_REQUESTS_TABLE, type QueryParams } from '@bpc/explorer-store';

export interface RenderedDimension {
  readonly dimensionId: number;
  /** The entry's `createdAt` (epoch ms): hits count from here. */
  readonly renderedAt: number;
}

export interface CacheEntryHitsRow {
  readonly dimensionId: number;
  readonly hits: number;
  readonly lastServedMs: number;
}

/**
 * Requests of the website for one URL served from the cache (`hit` or
 * `stale`) in each dimension since that dimension's entry was rendered, and
 * the last one. Exact (`FINAL`, as the explorers); every value is bound, and
 * the placeholders' names come from positions, never from the input.
 */
export function cacheEntryHitsSql(websiteId: string, url: string, rendered: readonly RenderedDimension[]): { sql: string; params: QueryParams } {
  const params: Record<string, unknown> = { website: websiteId, url, since: Math.min(...rendered.map((r) => r.renderedAt)) };
  const since = rendered.map((r, i) => {
    params[`d${i}`] = r.dimensionId;
    params[`t${i}`] = r.renderedAt;
    return `(dimension_id = {d${i}:UInt16} AND ts >= fromUnixTimestamp64Milli({t${i}:Int64}))`;
  });
  const sql = `SELECT dimension_id AS dimensionId, count() AS hits, toUnixTimestamp64Milli(max(ts)) AS lastServedMs
FROM ${BOT_REQUESTS_TABLE} FINAL
WHERE website = {website:String} AND url = {url:String}
  AND ts >= fromUnixTimestamp64Milli({since:Int64})
  AND cache_status IN ('hit', 'stale')
  AND (${since.join(' OR ')})
GROUP BY dimension_id`;
  return { sql, params };
}
