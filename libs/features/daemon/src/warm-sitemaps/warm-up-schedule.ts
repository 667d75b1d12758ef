import { createHash } from 'node:crypto';

/** A configured warm-up sitemap of a website (`websites[].sitemaps[]`). */
export interface WarmUpSitemap {
  readonly websiteId: string;
  readonly hostId: number;
  readonly url: string;
  readonly everyMinutes: number;
}

/** One interval's run of one sitemap. */
export interface WarmUpTurn {
  readonly sitemap: WarmUpSitemap;
  /** The interval's number since the epoch: intervals are aligned on the clock, so every daemon names the same one. */
  readonly interval: number;
  /** The turn's name across daemons: website, sitemap and interval. */
  readonly key: string;
  /** How long the turn is held: the interval itself. */
  readonly ttlMs: number;
}

/**
 * The turns due at `now` that this daemon has not handled yet (`handled`:
 * the last interval it handled per sitemap key), pure. Intervals are aligned
 * on the epoch (every 60 minutes = each hour on the hour, UTC), so daemons
 * agree on them without talking; the first check after start finds the
 * current interval due, which warms the cache at boot.
 */
export function dueWarmUpTurns(sitemaps: readonly WarmUpSitemap[], now: number, handled: ReadonlyMap<string, number>): WarmUpTurn[] {
  return sitemaps.flatMap((sitemap) => {
    const ttlMs = sitemap.everyMinutes * 60_000;
    const interval = Math.floor(now / ttlMs);
    const id = sitemapKey(sitemap);
    if (handled.get(id) === interval) return [];
    return [{ sitemap, interval, key: `${id}:${interval}`, ttlMs }];
  });
}

/** A sitemap's stable name: its website and a digest of its URL (URLs can be long and hold any character). */
export function sitemapKey(sitemap: WarmUpSitemap): string {
  return `${sitemap.websiteId}:${createHash('sha256').update(sitemap.url).digest('hex').slice(0, 16)}:${sitemap.everyMinutes}`;
}
