import { CacheEntry, isFresh } from '@bpc/cache-store';

/** An entry's facts as the public API shows them (times as UTC ISO, `stale` once expired). */
export function entryFacts(entry: CacheEntry, now: number) {
  return {
    kind: entry.kind,
    status: isFresh(entry, now) ? ('fresh' as const) : ('stale' as const),
    statusCode: entry.statusCode,
    renderedAt: new Date(entry.createdAt).toISOString(),
    expiresAt: new Date(entry.expiresAt).toISOString(),
    bytes: entry.bytes,
    renderMs: Math.round(entry.durationMs),
  };
}
