import { AddressPolicy, CheckedDispatchers, type EgressRules, type Resolvers } from '@bpc/egress';
import type { SitemapSite } from './fetch-on-site';
import { fetchSitemapFile, sitemapUrlOf } from './fetch-sitemap-file';
import type { ParsedSitemap } from './parse-sitemap';
import { DEFAULT_SITEMAP_LIMITS, SitemapRefused, type SitemapLimits } from './sitemap-limits';
import { UrlTally, type SkippedUrls } from './tally-urls';

export interface SitemapRead {
  readonly sitemapUrl: string;
  readonly site: SitemapSite;
  /** Epoch ms: only `<url>` entries with a later `lastmod` (or none) are taken. */
  readonly lastmodAfter?: number;
}

export interface SitemapReadResult {
  /** Files read: the sitemap, plus an index's children. */
  readonly sitemapsRead: number;
  /** `<url>` entries read, over every file. */
  readonly urlsFound: number;
  /** Distinct normalised URLs on the website, in document order. */
  readonly urls: readonly string[];
  readonly skipped: SkippedUrls;
}

export interface SitemapReaderOptions {
  /** Addresses a fetch may reach besides the site's configured origin (the renderer's policy: `render_service.egress_denied_ranges`). */
  readonly addresses: AddressPolicy;
  /** How names are resolved (tests). */
  readonly resolvers?: Resolvers;
  readonly limits?: Partial<SitemapLimits>;
  readonly userAgent?: string;
}

const USER_AGENT = 'Mozilla/5.0 (compatible; bpc-sitemap-reader/1.0)';

/**
 * Reads a sitemap or a sitemap index (one level: an index's children must be
 * urlsets) under the renderer's network rules, and tells which URLs to
 * recache. Everything is read before anything is returned: a refusal of any
 * file (`SitemapRefused`) refuses the whole call, so a caller enqueues all or
 * nothing.
 */
export class SitemapReader {
  readonly limits: SitemapLimits;
  /** Fetch clients by trusted origin, kept for their connection pools. */
  private readonly dispatchers: CheckedDispatchers;
  /** Calls running, and those waiting for one of them to end. */
  private running = 0;
  private readonly queued: (() => void)[] = [];
  /** Calls running or waiting, per website (see `siteKey`). */
  private readonly callsBySite = new Map<string, number>();

  constructor(private readonly options: SitemapReaderOptions) {
    this.limits = { ...DEFAULT_SITEMAP_LIMITS, ...options.limits };
    this.dispatchers = new CheckedDispatchers(options.resolvers);
  }

  /** Reads one sitemap call; at most `concurrentCalls` run at once in this reader, so many callers cannot hold many sitemaps in memory together. */
  async read(request: SitemapRead): Promise<SitemapReadResult> {
    const root = sitemapUrlOf(request.sitemapUrl, request.site);
    const site = siteKey(request.site);
    const ofSite = this.callsBySite.get(site) ?? 0;
    if (ofSite >= this.limits.maxCallsPerSite) {
      throw new SitemapRefused(`this website already has ${ofSite} sitemap recaches running or waiting (at most ${this.limits.maxCallsPerSite}); try again when one has ended`);
    }
    if (this.running >= this.limits.concurrentCalls && this.queued.length >= this.limits.maxWaitingCalls) {
      throw new SitemapRefused(`the sitemap reader is busy (${this.queued.length} recaches waiting); try again in a few minutes`);
    }
    this.callsBySite.set(site, ofSite + 1);
    try {
      // A call that ends hands its place straight to the next waiting one, so no newcomer slips in between.
      if (this.running >= this.limits.concurrentCalls) await new Promise<void>((start) => this.queued.push(start));
      else this.running += 1;
      try {
        return await this.readFrom(root, request);
      } finally {
        const next = this.queued.shift();
        if (next) next();
        else this.running -= 1;
      }
    } finally {
      const left = (this.callsBySite.get(site) ?? 1) - 1;
      if (left > 0) this.callsBySite.set(site, left);
      else this.callsBySite.delete(site);
    }
  }

  private async readFrom(root: URL, request: SitemapRead): Promise<SitemapReadResult> {
    const rules: EgressRules = { trustedOrigin: request.site.origin ? new URL(request.site.origin) : undefined, addresses: this.options.addresses };
    const call = new AbortController();
    const deadline = setTimeout(() => call.abort(), this.limits.callTimeoutMs);
    try {
      const fetchFile = async (url: URL) => {
        // A timer of its own, cleared when the file is done: nothing outlives the call.
        const file = new AbortController();
        const timer = setTimeout(() => file.abort(), this.limits.fileTimeoutMs);
        try {
          return await fetchSitemapFile(url, {
            site: request.site,
            rules,
            dispatcher: this.dispatchers.for(rules),
            limits: this.limits,
            signal: AbortSignal.any([call.signal, file.signal]),
            userAgent: this.options.userAgent ?? USER_AGENT,
          });
        } finally {
          clearTimeout(timer);
        }
      };
      const tally = new UrlTally({ hostnames: request.site.hostnames, lastmodAfter: request.lastmodAfter, maxUrls: this.limits.maxUrlsPerCall });
      const top = await fetchFile(root);
      if (top.kind === 'urlset') tally.addFile(top.entries, top.overCap);
      const children = top.kind === 'urlset' ? 0 : await this.readChildren(top, request.site, fetchFile, call, (file) => tally.addFile(file.entries, file.overCap));
      return { sitemapsRead: 1 + children, urlsFound: tally.found, urls: tally.accepted(), skipped: tally.skipped };
    } finally {
      clearTimeout(deadline);
      call.abort();
    }
  }

  async close(): Promise<void> {
    await this.dispatchers.close();
  }

  /**
   * The index's sitemaps, read `concurrency` at a time and handed to `onFile`
   * in index order (so counts and caps do not depend on which answered
   * first), each let go once handed over: a file is not started while
   * `2 × concurrency` files before it are still unread, so a slow first file
   * cannot make the reader hold the whole index. The first refusal stops the
   * others. Returns how many sitemaps were read.
   */
  private async readChildren(index: ParsedSitemap, site: SitemapSite, fetchFile: (url: URL) => Promise<ParsedSitemap>, call: AbortController, onFile: (file: ParsedSitemap) => void): Promise<number> {
    const urls = new Map<string, URL>();
    index.entries.forEach((entry, i) => {
      if (entry.loc === undefined) throw new SitemapRefused(`the sitemap index's entry ${i + 1} has no valid <loc>`);
      const url = sitemapUrlOf(entry.loc, site);
      urls.set(url.href, url);
    });
    const queue = [...urls.values()];
    const window = 2 * this.limits.concurrency;
    const done = new Map<number, ParsedSitemap>();
    let next = 0;
    let handed = 0;
    let failed = false;
    let waiting: (() => void)[] = [];
    const handOver = () => {
      for (let file = done.get(handed); file; file = done.get(handed)) {
        done.delete(handed);
        onFile(file);
        handed += 1;
      }
      waiting.splice(0).forEach((wake) => wake());
    };
    const worker = async (): Promise<void> => {
      while (next < queue.length && !failed) {
        if (next >= handed + window) {
          await new Promise<void>((wake) => waiting.push(wake));
          continue;
        }
        const i = next++;
        const file = await fetchFile(queue[i]);
        if (file.kind === 'sitemapindex') throw new SitemapRefused(`${queue[i].href}: a sitemap index inside a sitemap index (one level of nesting is read)`);
        done.set(i, file);
        handOver();
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.limits.concurrency, queue.length) }, worker));
    } catch (error) {
      failed = true;
      call.abort();
      waiting.splice(0).forEach((wake) => wake());
      throw error;
    }
    waiting = [];
    return queue.length;
  }
}

/** One website as the per-site limit counts it: websites sharing a host share its sitemaps' places. */
function siteKey(site: SitemapSite): string {
  return JSON.stringify([[...site.hostnames].map((name) => name.toLowerCase()).sort(), site.origin ?? '']);
}
