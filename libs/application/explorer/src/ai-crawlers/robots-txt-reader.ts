import { LRUCache } from 'lru-cache';
import type { Clock } from '@bpc/domain';
import { CheckedDispatchers, type AddressPolicy, type EgressRules, type Resolvers } from '@bpc/egress';
import { fetchRobotsTxt } from '@bpc/robots-txt';
import type { SitemapSite } from '@bpc/sitemaps';
import { robotsSnapshotOf, type RobotsSnapshot } from './site-robots-txt';

export interface RobotsTxtReaderOptions {
  /** Addresses a fetch may reach besides the site's configured origin (the renderer's policy). */
  readonly addresses: AddressPolicy;
  readonly clock: Clock;
  /** How long a fetched file answers before it is fetched again (default 5 min). */
  readonly ttlMs?: number;
  /** How long a failed fetch (no answer, a 5xx) answers before it is tried again (default 30 s). */
  readonly failureTtlMs?: number;
  /** One fetch's bound (default 5 s): the insight waits for it. */
  readonly timeoutMs?: number;
  /** Bytes of files kept over every host (default 16 MiB; one file reads at most 500 KiB). */
  readonly maxCachedBytes?: number;
  /** How names are resolved (tests). */
  readonly resolvers?: Resolvers;
}

interface Kept {
  readonly snapshot: RobotsSnapshot;
  readonly expiresAt: number;
}

const USER_AGENT = 'Mozilla/5.0 (compatible; bpc-robots-reader/1.0)';

/**
 * A host's robots.txt for the public API's insights, read when asked and
 * kept a few minutes per hostname: fetched as sitemaps are (through the
 * configured origin, under the egress rules, redirects kept on the site, at
 * most 500 KiB read, a timeout), one fetch per hostname at a time (callers
 * asking meanwhile share it). Hostnames are the configured websites', so the
 * fetches are bounded by them and by the TTL; memory by `maxCachedBytes`.
 * A failure is an answer (`unreachable`, `server_error`), kept for less time.
 */
export class RobotsTxtReader {
  private readonly kept: LRUCache<string, Kept>;
  private readonly fetching = new Map<string, Promise<RobotsSnapshot>>();
  /** Fetch clients by trusted origin, kept for their connection pools. */
  private readonly dispatchers: CheckedDispatchers;

  constructor(private readonly options: RobotsTxtReaderOptions) {
    this.dispatchers = new CheckedDispatchers(options.resolvers);
    this.kept = new LRUCache<string, Kept>({ maxSize: options.maxCachedBytes ?? 16 * 1024 * 1024, sizeCalculation: (kept) => kept.snapshot.size + 1 });
  }

  /** `https://<hostname>/robots.txt` of `site`, from the cache while fresh, else fetched now. */
  async read(hostname: string, site: SitemapSite): Promise<RobotsSnapshot> {
    const key = hostname.toLowerCase();
    const kept = this.kept.get(key);
    if (kept && kept.expiresAt > this.options.clock.now()) return kept.snapshot;
    let running = this.fetching.get(key);
    if (!running) {
      running = this.fetch(key, site).finally(() => this.fetching.delete(key));
      this.fetching.set(key, running);
    }
    return running;
  }

  async close(): Promise<void> {
    await this.dispatchers.close();
  }

  private async fetch(hostname: string, site: SitemapSite): Promise<RobotsSnapshot> {
    const robotsUrl = new URL(`https://${hostname}/robots.txt`);
    const rules: EgressRules = { trustedOrigin: site.origin ? new URL(site.origin) : undefined, addresses: this.options.addresses };
    const fetched = await fetchRobotsTxt(robotsUrl, { site, rules, dispatcher: this.dispatchers.for(rules), userAgent: USER_AGENT, timeoutMs: this.options.timeoutMs ?? 5_000 });
    const now = this.options.clock.now();
    const snapshot = robotsSnapshotOf(robotsUrl.href, fetched, now);
    const failed = snapshot.view.state === 'unreachable' || snapshot.view.state === 'server_error';
    this.kept.set(hostname, { snapshot, expiresAt: now + (failed ? (this.options.failureTtlMs ?? 30_000) : (this.options.ttlMs ?? 300_000)) });
    return snapshot;
  }
}
