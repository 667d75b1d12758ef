import { performance } from 'node:perf_hooks';
import { putDecision, type CacheEntry, type CacheStore, type PutResult } from '@bpc/cache-store';
import { changesBetween, systemClock, type Clock, type HostCatalog, type HostDefinition, type PageChange, type PageFacts, type RecacheMode } from '@bpc/domain';
import { LogThrottle, silentLog, type LogSink } from '@bpc/support';
import { AddressPolicy, CheckedDispatchers, type EgressRules, originUrl, type Resolvers } from '@bpc/egress';
import { BlankRender, errorSummary, failureReason, type FetchedPage } from './fetched-page';
import { fetchOrigin } from './fetch-origin';
import { pageFactsOf } from './page-facts/page-facts-of';
import type { PageRefresher, RefreshJob, RefreshOptions, RefreshOutcome, TabCapacity } from './page-refresher.port';
import { emulationFor, expiresAt, resolveMode } from './refresh-rules';
import { isGoodStatus, judgeAgainstLastGood, lastGoodRulesOf, type LastGoodRules } from './last-good/last-good-rules';
import { renderPage } from './render-page';
import { settleRulesOf, type SettleRules } from './settle/settle-rules';
import type { TabPool } from './chromium-tab-pool';

export interface CachingPageRefresherOptions {
  readonly catalog: HostCatalog;
  readonly store: CacheStore;
  /** Browser tabs for `render` mode (a `ChromiumTabPool`); closed with the refresher. */
  readonly pool: TabPool;
  readonly clock?: Clock;
  readonly log?: LogSink;
  /** Addresses renders and origin fetches may reach besides a trusted origin (default: public ones but the machine's own). */
  readonly addresses?: AddressPolicy;
  /** How origin fetches resolve names (the pool's proxies have their own setting). */
  readonly resolvers?: Resolvers;
  /** How a produced page's facts are read (default `pageFactsOf`): the render bench swaps it for a constant to measure what reading them costs. */
  readonly readFacts?: typeof pageFactsOf;
}

/** What a refresh is about once the job is resolved against the configuration. */
interface ResolvedJob {
  readonly mode: RecacheMode;
  readonly publicUrl: URL;
  readonly fetchUrl: URL;
  readonly ttlExpiry: (now: number) => number;
  readonly emulation: ReturnType<typeof emulationFor>;
  readonly egress: EgressRules;
  readonly settle: SettleRules;
  /** Renders that may share a kept tab: the same host's. */
  readonly affinity: string;
  readonly lastGood: LastGoodRules;
}

const RENDER_WINS_DETAIL = 'a fresh render is cached (render-wins)';

/**
 * What changed for bots since the entry this render replaced (the previous
 * render of the URL and dimension that had facts); undefined when that entry
 * had no facts (none, or stored before facts were) or nothing changed.
 */
function changesSincePrevious(previous: PageFacts | undefined, facts: PageFacts): readonly PageChange[] | undefined {
  if (previous === undefined) return undefined;
  const changes = changesBetween(previous, facts);
  return changes.length > 0 ? changes : undefined;
}

/**
 * Renders (browser) or fetches (origin, `bypass`) one page and stores it in
 * the cache store. Page failures become `failed` outcomes, and so does a
 * page the store could not take (carrying the page, `unstored`); only a
 * store that cannot be read before the page is produced (e.g. Redis down
 * for a bypass's render-wins check) is thrown, since then nothing can be
 * said about the page. See `PageRefresher` for the guarantees.
 */
export class CachingPageRefresher implements PageRefresher {
  private readonly clock: Clock;
  private readonly log: LogSink;
  /** Origin-fetch clients by trusted origin, kept for their connection pools. */
  private readonly dispatchers: CheckedDispatchers;
  private readonly addresses: AddressPolicy;
  /** Each host's last-good rules, its title pattern compiled once. */
  private readonly lastGoodRules = new Map<number, LastGoodRules>();
  /** A store outage fails every put the same way: one line per 10 s, with how many were alike. */
  private readonly unstoredLog = new LogThrottle(10_000);

  constructor(private readonly options: CachingPageRefresherOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentLog;
    this.addresses = options.addresses ?? new AddressPolicy();
    this.dispatchers = new CheckedDispatchers(options.resolvers);
  }

  async refresh(job: RefreshJob, options: RefreshOptions): Promise<RefreshOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const resolved = this.resolve(job);
    if (typeof resolved === 'string') return { kind: 'failed', reason: resolved, durationMs: elapsed(), ...(job.mode ? { mode: job.mode } : {}) };
    const { mode } = resolved;

    // Render-wins, early: no origin request for a bypass the store would refuse anyway.
    if (mode === 'bypass') {
      const current = await this.options.store.get(job.hostId, job.url, job.dimensionId);
      if (current && putDecision(current.entry, { kind: 'bypass', createdAt: this.clock.now() }) === 'render-wins') {
        return { kind: 'kept', reason: 'render-wins', detail: RENDER_WINS_DETAIL, mode, statusCode: 0, bytes: 0, durationMs: elapsed() };
      }
    }

    let page: FetchedPage;
    try {
      page = await this.produce(resolved, options);
    } catch (error) {
      const reason = failureReason(error, options.signal);
      const current = await this.currentEntry(job);
      if (error instanceof BlankRender && resolved.lastGood.enabled && current !== undefined && isGoodStatus(current.statusCode)) {
        this.log.info({ hostId: job.hostId, url: job.url, dimensionId: job.dimensionId, mode, rule: 'blank', reason }, 'last good page kept');
        return { kind: 'kept', reason: 'blank', detail: 'no visible text', mode, statusCode: 0, bytes: 0, durationMs: elapsed() };
      }
      this.log.warn({ hostId: job.hostId, url: job.url, dimensionId: job.dimensionId, mode, reason }, 'page refresh failed');
      return { kind: 'failed', reason, durationMs: elapsed(), mode, timedOut: reason.startsWith('timed out'), entryKept: current !== undefined };
    }

    const durationMs = elapsed();
    const createdAt = this.clock.now();
    const facts: PageFacts = (this.options.readFacts ?? pageFactsOf)(job.url, page, false);
    let result: PutResult;
    let previousFacts: PageFacts | undefined;
    try {
      const current = await this.options.store.get(job.hostId, job.url, job.dimensionId);
      previousFacts = current?.entry.facts;
      const verdict = judgeAgainstLastGood(
        { kind: mode, statusCode: page.statusCode, statusSignalled: page.statusSignalled === true, contentType: page.headers['content-type'], body: page.body },
        current?.entry,
        resolved.lastGood,
      );
      if (verdict.kind === 'keep') {
        this.log.info({ hostId: job.hostId, url: job.url, dimensionId: job.dimensionId, mode, rule: verdict.reason, bytes: page.body.length, keptBytes: current?.entry.bytes }, 'last good page kept');
        return { kind: 'kept', reason: verdict.reason, detail: verdict.detail, mode, statusCode: page.statusCode, bytes: page.body.length, durationMs, facts: { ...facts, soft404: verdict.reason === 'soft-404' } };
      }
      if (verdict.kind === 'fail') {
        this.log.warn({ hostId: job.hostId, url: job.url, dimensionId: job.dimensionId, mode, reason: verdict.reason }, 'page refresh failed');
        return { kind: 'failed', reason: verdict.reason, durationMs, mode, entryKept: current !== undefined, facts };
      }
      result = await this.options.store.put(
        {
          hostId: job.hostId,
          url: job.url,
          dimensionId: job.dimensionId,
          kind: mode,
          statusCode: page.statusCode,
          headers: page.headers,
          durationMs,
          createdAt,
          expiresAt: resolved.ttlExpiry(createdAt),
          facts,
        },
        page.body,
      );
    } catch (error) {
      const reason = `the page could not be stored: ${errorSummary(error)}`;
      const alike = this.unstoredLog.pass();
      if (alike !== undefined) this.log.error({ hostId: job.hostId, url: job.url, dimensionId: job.dimensionId, mode, err: error, alike }, 'page produced but not stored');
      return { kind: 'failed', reason, durationMs, mode, unstored: { cacheKind: mode, page }, facts };
    }
    if (!result.stored) return { kind: 'kept', reason: result.reason, detail: RENDER_WINS_DETAIL, mode, statusCode: page.statusCode, bytes: page.body.length, durationMs, facts };
    const changes = changesSincePrevious(previousFacts, facts);
    return { kind: 'stored', cacheKind: mode, statusCode: page.statusCode, bytes: result.entry.bytes, durationMs, facts, ...(changes ? { changes } : {}) };
  }

  /** The page's entry now (kept as it was by a failed refresh); undefined when there is none or the store cannot tell. */
  private async currentEntry(job: RefreshJob): Promise<CacheEntry | undefined> {
    try {
      return (await this.options.store.get(job.hostId, job.url, job.dimensionId))?.entry;
    } catch {
      return undefined;
    }
  }

  capacity(): TabCapacity {
    return this.options.pool.capacity();
  }

  async close(): Promise<void> {
    await Promise.all([this.options.pool.close(), this.dispatchers.close()]);
  }

  /** The job against the configuration, or the reason it cannot be done. */
  private resolve(job: RefreshJob): ResolvedJob | string {
    const { catalog } = this.options;
    const host = catalog.host(job.hostId);
    if (!host) return `unknown host ${job.hostId}`;
    const dimension = host.dimensions.find((d) => d.id === job.dimensionId);
    if (!dimension) return `unknown dimension ${job.dimensionId} of host ${job.hostId}`;
    let publicUrl: URL;
    try {
      publicUrl = new URL(job.url);
    } catch {
      return `invalid url ${JSON.stringify(job.url)}`;
    }
    const rule = catalog.urlRule(job.hostId, publicUrl);
    // Only an origin the operator configured is trusted: the default one is named by the customer's DNS.
    const egress = { trustedOrigin: host.origin ? new URL(host.origin) : undefined, addresses: this.addresses };
    return {
      mode: resolveMode(job.mode, rule, dimension),
      publicUrl,
      fetchUrl: originUrl(publicUrl, host.origin),
      ttlExpiry: (now) => expiresAt(now, host, rule),
      emulation: emulationFor(dimension),
      egress,
      settle: settleRulesOf(host),
      lastGood: this.lastGoodOf(host),
      affinity: `host:${host.host_id}`,
    };
  }

  private lastGoodOf(host: HostDefinition): LastGoodRules {
    let rules = this.lastGoodRules.get(host.host_id);
    if (!rules) {
      rules = lastGoodRulesOf(host);
      this.lastGoodRules.set(host.host_id, rules);
    }
    return rules;
  }

  private produce(job: ResolvedJob, options: RefreshOptions): Promise<FetchedPage> {
    const { signal } = options;
    if (job.mode === 'bypass') {
      return fetchOrigin({ url: job.fetchUrl, publicUrl: job.publicUrl, userAgent: job.emulation.userAgent, signal, dispatcher: this.dispatchers.for(job.egress) });
    }
    return this.options.pool.withTab({ purpose: options.purpose, signal, waitSignal: options.tabWaitSignal, egress: job.egress, affinity: job.affinity }, (page) =>
      renderPage(page, { url: job.fetchUrl, publicUrl: job.publicUrl, emulation: job.emulation, egress: job.egress, settle: job.settle, signal }),
    );
  }
}
