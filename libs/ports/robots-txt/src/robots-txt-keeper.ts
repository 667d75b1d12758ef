import { LRUCache } from 'lru-cache';
import { CheckedDispatchers, type AddressPolicy, type EgressRules, type Resolvers } from '@bpc/egress';
import type { SitemapSite } from '@bpc/sitemaps';
import { fetchRobotsTxt } from './fetch-robots-txt';
import { MAX_ROBOTS_TXT_BYTES, mayCrawl, robotsFileOf, type RobotsFetch, type RobotsFile } from './robots-file';

/** Whether a bot was allowed a URL by its host's robots.txt: `unknown` until the file has been fetched once. */
export type RobotsVerdict = 'yes' | 'no' | 'unknown';

/** The Nest token of the process's `RobotsTxtKeeper` (the composition root opens it). */
export const ROBOTS_TXT_KEEPER = Symbol('ROBOTS_TXT_KEEPER');

export interface RobotsTxtKeeperOptions {
  /** Addresses a fetch may reach besides the site's configured origin (the renderer's policy). */
  readonly addresses: AddressPolicy;
  /** How long a fetched file is used before it is fetched again (on the next question about its host). */
  readonly refreshMs: number;
  /** How soon a host whose robots.txt could not be fetched (no answer, 5xx) is tried again (default 5 min). */
  readonly retryMs?: number;
  /** How long a refresh that fails keeps the previous good copy in use, as Google does (default 30 days). */
  readonly keepGoodCopyMs?: number;
  /** One fetch's bound (default 10 s). */
  readonly timeoutMs?: number;
  /** Fetches running at once, over every host (default 4); beyond it a host waits for a later question. */
  readonly maxConcurrentFetches?: number;
  /** Hosts whose file is kept (default 10,000; each at most `MAX_ROBOTS_TXT_BYTES` read). */
  readonly maxHosts?: number;
  /** A file with more `Allow`/`Disallow` lines is not judged (`unknown`): see `MAX_JUDGED_RULES` (default). */
  readonly maxRules?: number;
  readonly userAgent?: string;
  /** Milliseconds since an epoch; injected so tests move time. */
  readonly now?: () => number;
  /** How names are resolved (tests). */
  readonly resolvers?: Resolvers;
}

/**
 * robots-parser tries every rule of the bot's group on each URL: about 60 µs
 * per 1,000 rules, on the serving thread, for each URL not judged before (a
 * 500 KiB file of hostile rules took 6 ms a URL, and 100 ms to parse). Real
 * files have tens to a few hundred rules; a file with more than this many is
 * not parsed, and its verdicts are `unknown`.
 */
export const MAX_JUDGED_RULES = 2_000;

interface KeptFile {
  /** Undefined when the file has too many rules to be judged per request (`maxRules`). */
  readonly file: RobotsFile | undefined;
  /** Names this copy in the verdict memo (a new fetch, a new version). */
  readonly version: number;
  /** When this copy is to be fetched again. */
  readonly refreshAt: number;
  /** When the copy was fetched and was good (rules, or a 4xx: no rules); a failed refresh keeps it until `keepGoodCopyMs` after. */
  readonly goodSince?: number;
}

const USER_AGENT = 'Mozilla/5.0 (compatible; bpc-robots-reader/1.0)';

/**
 * Each host's robots.txt, for the edge's per-request verdict without ever
 * waiting: a question about a host whose file is not known (or is due for a
 * refresh) starts a fetch in the background, one per host at a time and
 * `maxConcurrentFetches` in all, and is answered from what is known now
 * (`unknown` before the first fetch). Files are fetched as sitemaps are
 * (through the configured origin, under the egress rules, redirects kept on
 * the site, 500 KiB read at most) and judged as RFC 9309 says (4xx: all
 * allowed; 5xx or unreachable: all disallowed), except that a failed refresh
 * keeps a good copy for `keepGoodCopyMs`. Memory is bounded by `maxHosts`
 * files of at most 500 KiB each.
 */
export class RobotsTxtKeeper {
  private readonly files: LRUCache<string, KeptFile>;
  /**
   * Verdicts per file version, bot and URL: robots-parser's `isAllowed`
   * parses the URL and walks the rules each time (about 3 µs a request in
   * `npm run bots:bench`), and bots ask for the same URLs again. URLs over
   * 2,048 characters are judged, never kept.
   */
  private readonly verdicts = new LRUCache<string, boolean>({ max: 50_000 });
  private versions = 0;
  private readonly fetching = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  /** Fetch clients by trusted origin, kept for their connection pools. */
  private readonly dispatchers: CheckedDispatchers;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: RobotsTxtKeeperOptions) {
    this.files = new LRUCache({ max: options.maxHosts ?? 10_000 });
    this.now = options.now ?? Date.now;
    this.dispatchers = new CheckedDispatchers(options.resolvers);
  }

  /**
   * Whether `productToken`'s bot may fetch `url` (on `origin`, `scheme://host[:port]`,
   * of `site`) by what is known now; never waits. `productToken` is the bot's
   * robots.txt name (`Googlebot`, `GPTBot`).
   */
  verdict(site: SitemapSite, origin: string, productToken: string, url: string): RobotsVerdict {
    const kept = this.files.get(origin);
    if (kept === undefined || kept.refreshAt <= this.now()) this.fetchInBackground(site, origin);
    if (kept?.file === undefined) return 'unknown';
    if (url.length > 2_048) return mayCrawl(kept.file, productToken, url) ? 'yes' : 'no';
    const key = `${kept.version} ${productToken} ${url}`;
    let allowed = this.verdicts.get(key);
    if (allowed === undefined) {
      allowed = mayCrawl(kept.file, productToken, url);
      this.verdicts.set(key, allowed);
    }
    return allowed ? 'yes' : 'no';
  }

  /** Resolves once no fetch runs (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
    await this.dispatchers.close();
  }

  private fetchInBackground(site: SitemapSite, origin: string): void {
    if (this.closed || this.fetching.has(origin) || this.running.size >= (this.options.maxConcurrentFetches ?? 4)) return;
    this.fetching.add(origin);
    // refresh() does not reject (a failed fetch is an answer); the catch keeps a bug from becoming an unhandled rejection.
    const run = this.refresh(site, origin).catch(() => undefined).finally(() => {
      this.fetching.delete(origin);
      this.running.delete(run);
    });
    this.running.add(run);
  }

  private async refresh(site: SitemapSite, origin: string): Promise<void> {
    const robotsUrl = new URL('/robots.txt', origin);
    const rules: EgressRules = { trustedOrigin: site.origin ? new URL(site.origin) : undefined, addresses: this.options.addresses };
    const fetched = await fetchRobotsTxt(robotsUrl, {
      site,
      rules,
      dispatcher: this.dispatchers.for(rules),
      userAgent: this.options.userAgent ?? USER_AGENT,
      timeoutMs: this.options.timeoutMs ?? 10_000,
    });
    this.files.set(origin, this.kept(this.files.get(origin), robotsUrl.href, fetched));
  }

  /** What a fetch leaves in use: the new file, or the previous good copy when the fetch failed and that copy is recent enough. */
  private kept(previous: KeptFile | undefined, robotsUrl: string, fetched: RobotsFetch): KeptFile {
    const now = this.now();
    const failed = fetched.kind === 'unreachable' || fetched.status >= 500;
    const retryAt = now + (this.options.retryMs ?? 5 * 60_000);
    const version = ++this.versions;
    if (!failed) {
      const judged = fetched.kind === 'answered' && fetched.status < 300 && ruleLines(fetched.body) > (this.options.maxRules ?? MAX_JUDGED_RULES) ? undefined : robotsFileOf(robotsUrl, fetched);
      return { file: judged, version, refreshAt: now + this.options.refreshMs, goodSince: now };
    }
    if (previous?.goodSince !== undefined && now - previous.goodSince < (this.options.keepGoodCopyMs ?? 30 * 86_400_000)) return { ...previous, refreshAt: retryAt };
    return { file: robotsFileOf(robotsUrl, fetched), version, refreshAt: retryAt };
  }
}

/** How many `Allow` and `Disallow` lines the part of a file that is read holds (counted before parsing, which costs far more). */
function ruleLines(body: Buffer): number {
  return body.subarray(0, MAX_ROBOTS_TXT_BYTES).toString('latin1').match(/^[ \t]*(?:dis)?allow[ \t]*:/gim)?.length ?? 0;
}
