import { performance } from 'node:perf_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { CACHE_STORE, CacheBodyGoneError, CacheHit, CacheStore, isFresh, StoredHeaders } from '@bpc/cache-store';
import type { AppConfig } from '@bpc/config';
import { Clock, DimensionDefinition, digestsEqual, HostCatalog, normalizeHttpUrl, sha256Digest } from '@bpc/domain';
import { BoundedMemo } from '@bpc/support';
import type { CacheStatus } from '@bpc/events';
import { APP_CONFIG, CLOCK, LOGGER } from '@bpc/platform';
import { PAGE_REFRESHER, PageRefresher, RefreshOutcome, renderFactOf, UnstoredPage } from '@bpc/renderer';
import type { Logger } from 'pino';
import { botNameOf } from '../bot-name/bot-name';
import { BotRequestRecorder } from '../record-bot-request/bot-request-recorder';
import { RenderFactRecorder } from '../record-render/render-fact-recorder';
import { ScheduleAutorecacheWhenPageServed } from '../schedule-autorecache/schedule-autorecache-when-page-served';
import { PageBodies, PageBody, titleOf } from './page-bodies';

/** A bot request as the customer's middleware forwards it. */
export interface BotPageRequest {
  /** The request target: `/` + the page's absolute URL (query included). */
  readonly target: string;
  readonly token: string | undefined;
  readonly userAgent: string;
  readonly acceptEncoding: string | undefined;
  /** HEAD: the answer's headers only (its body is not sent, and not counted as sent). */
  readonly headOnly?: boolean;
  /** The id the bot gets in `X-Request-Id`, the recorded request carries, and the logs name the request by. */
  readonly requestId: string;
  /** `performance.now()` when the request arrived. */
  readonly receivedAt: number;
}

export interface EdgeAnswer {
  readonly statusCode: number;
  /** Complete, `content-length` included. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** How the page was served; absent when the request never reached the cache (refused before, or failed unexpectedly). */
  readonly cacheStatus?: CacheStatus;
}

/** Stable codes of the edge's own (non-page) answers. */
export type EdgeErrorCode = 'UNAUTHENTICATED' | 'INVALID_URL' | 'NOT_FOUND' | 'RENDER_TIMEOUT' | 'RENDER_FAILED' | 'UNAVAILABLE';

interface Website {
  readonly id: string;
  readonly hostId: number;
  readonly tokenSha256: Buffer;
}

/** The parts of a page URL the edge uses. */
interface PageUrl {
  readonly href: string;
  readonly hostname: string;
}

/** Distinct URLs, User-Agents and Accept-Encodings whose parse/match results are remembered (per memo; the dimension memo is per host); longer keys are never kept. */
const MEMO_CAPACITY = 10_000;
const MEMO_MAX_KEY = 1_024;

interface Flight {
  readonly done: Promise<RefreshOutcome>;
  /** performance.now() when the render finished; requests that started later render again. */
  settledAt?: number;
}

/** The cache store or a body file could not be read (not a page that is missing). */
class CacheUnreadableError extends Error {}

/** How long a finished render is kept for requests that started before it finished. */
const FLIGHT_GRACE_MS = 5_000;
/** `Retry-After` of a failed render, and of a cache that could not be read (a store outage is usually shorter). */
const RENDER_RETRY_AFTER_S = '60';
const CACHE_RETRY_AFTER_S = '10';

/**
 * Serves one bot request: website by token, page URL, dimension by
 * User-Agent, then the cache entry — fresh (`hit`), stale (`stale`, served at
 * once; its autorecache entry is already due), or none (`miss`: rendered now
 * on an online tab and waited for, up to `edge.render_timeout_ms`).
 *
 * Concurrency: misses of one host + URL + dimension share one render (a
 * single-flight map). A request that started before a render finished uses
 * its result; one that starts after it renders again if the entry is gone
 * (so an invalidate right after a render still makes the next request render).
 * Each render (not each request sharing it) is one `RenderRecorded` fact,
 * recorded in the background once it ends (`RenderFactRecorder`).
 */
@Injectable()
export class ServePage {
  private readonly websites: readonly Website[];
  /** Tokens that matched a website: at most one per website, as each has one token hash. */
  private readonly websiteByToken = new Map<string, Website>();
  private cacheErrorLoggedAt = Number.NEGATIVE_INFINITY;
  private readonly flights = new Map<string, Flight>();
  private readonly bodies = new PageBodies();
  private readonly pageUrls = new BoundedMemo<PageUrl | undefined>(pageUrlOf, MEMO_CAPACITY, MEMO_MAX_KEY);
  private readonly botNames = new BoundedMemo(botNameOf, MEMO_CAPACITY, MEMO_MAX_KEY);
  private readonly gzipAccepted = new BoundedMemo(acceptsGzip, MEMO_CAPACITY, MEMO_MAX_KEY);
  private readonly dimensions = new Map<number, BoundedMemo<DimensionDefinition>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CACHE_STORE) private readonly cache: CacheStore,
    @Inject(PAGE_REFRESHER) private readonly refresher: PageRefresher,
    private readonly hosts: HostCatalog,
    private readonly recorder: BotRequestRecorder,
    private readonly autorecache: ScheduleAutorecacheWhenPageServed,
    private readonly renderFacts: RenderFactRecorder,
  ) {
    this.websites = config.websites.flatMap((w) => (w.prerender_token_sha256 ? [{ id: w.id, hostId: w.host_id, tokenSha256: Buffer.from(w.prerender_token_sha256, 'hex') }] : []));
    for (const host of config.hosts) {
      this.dimensions.set(host.host_id, new BoundedMemo((userAgent) => hosts.dimensionForUserAgent(host.host_id, userAgent)!, MEMO_CAPACITY, MEMO_MAX_KEY));
    }
  }

  async serve(request: BotPageRequest): Promise<EdgeAnswer> {
    const { requestId, receivedAt: started } = request;
    const website = this.websiteOf(request.token);
    if (!website) return problem(401, 'UNAUTHENTICATED', requestId);
    const url = this.pageUrls.get(request.target);
    if (!url) return problem(400, 'INVALID_URL', requestId);
    const host = this.hosts.hostForHostname(url.hostname);
    if (!host || host.host_id !== website.hostId) return problem(404, 'NOT_FOUND', requestId);
    const dimension = this.dimensions.get(host.host_id)!.get(request.userAgent);
    const page = { website, hostId: host.host_id, url: url.href, hostname: url.hostname, dimension, request, requestId, started };
    try {
      return await this.servePage(page);
    } catch (error) {
      if (!(error instanceof CacheUnreadableError)) throw error;
      // The cache (its store, its files) could not be read: a 503 the bot retries, recorded like any answer.
      this.logCacheUnreadable(error.cause, requestId);
      return this.failed(page, 503, 'UNAVAILABLE', CACHE_RETRY_AFTER_S);
    }
  }

  private async servePage(page: PageContext): Promise<EdgeAnswer> {
    const { hostId, url, dimension, started } = page;
    const cached = await this.cached(page);
    if (cached) {
      const now = this.clock.now();
      return this.answer(page, cached.hit, cached.body, isFresh(cached.hit.entry, now) ? 'hit' : 'stale');
    }
    const outcome = await this.renderShared(hostId, url, dimension.id, started);
    if (outcome === 'timeout') return this.renderFailed(page, 'RENDER_TIMEOUT', `not rendered within edge.render_timeout_ms (${this.config.edge.render_timeout_ms} ms)`);
    if (outcome.kind === 'failed') {
      if (outcome.unstored) return this.answerUnstored(page, outcome.unstored, outcome.reason);
      return this.renderFailed(page, outcome.reason.startsWith('timed out') ? 'RENDER_TIMEOUT' : 'RENDER_FAILED', outcome.reason);
    }
    const fresh = await this.cached(page);
    if (!fresh) return this.renderFailed(page, 'RENDER_FAILED', 'the rendered page was invalidated before it could be served');
    const status: CacheStatus = outcome.kind === 'kept' ? 'hit' : fresh.hit.entry.kind === 'bypass' ? 'bypass' : 'miss';
    return this.answer(page, fresh.hit, fresh.body, status);
  }

  /** At most one line a second: during a store outage every request fails the same way. */
  private logCacheUnreadable(error: unknown, requestId: string): void {
    const now = performance.now();
    if (now - this.cacheErrorLoggedAt < 1_000) return;
    this.cacheErrorLoggedAt = now;
    this.logger.error({ err: error, reqId: requestId }, 'edge cache unreadable: answering 503');
  }

  /**
   * A token is hashed and compared with every website's hash in constant time;
   * one that matched is remembered, so a website's bots cost one SHA-256, not
   * one per request (it was the largest item of a cache hit after the socket
   * write). Answering a known token faster tells nothing its 200 does not.
   */
  private websiteOf(token: string | undefined): Website | undefined {
    if (!token) return undefined;
    const known = this.websiteByToken.get(token);
    if (known) return known;
    const digest = sha256Digest(token);
    let found: Website | undefined;
    for (const website of this.websites) if (digestsEqual(digest, website.tokenSha256) && !found) found = website;
    if (found) this.websiteByToken.set(token, found);
    return found;
  }

  /** The page's servable entry and body; throws CacheUnreadableError when the store or the body file cannot be read. */
  private async cached(page: PageContext): Promise<{ hit: CacheHit; body: PageBody } | undefined> {
    try {
      const hit = await this.cache.get(page.hostId, page.url, page.dimension.id);
      return hit && { hit, body: await this.bodies.of(hit) };
    } catch (error) {
      if (error instanceof CacheBodyGoneError) return undefined;
      throw new CacheUnreadableError('the cache could not be read', { cause: error });
    }
  }

  private async renderShared(hostId: number, url: string, dimensionId: number, started: number): Promise<RefreshOutcome | 'timeout'> {
    const key = `${hostId}\n${dimensionId}\n${url}`;
    let flight = this.flights.get(key);
    if (!flight || (flight.settledAt !== undefined && flight.settledAt < started)) {
      // The bot waits at most render_timeout_ms (below); a render that started may take as long as a recache, so a slow page is cached for the next bot
      // instead of being abandoned at every miss. Waiting for a tab ends with the bot's wait: renders nobody waits for must not queue for tabs.
      const signal = AbortSignal.timeout(Math.max(this.config.edge.render_timeout_ms, this.config.recache.timeout_per_url * 1_000));
      const tabWaitSignal = AbortSignal.timeout(this.config.edge.render_timeout_ms);
      const created: Flight = {
        done: this.refresher.refresh({ hostId, url, dimensionId }, { signal, tabWaitSignal, purpose: 'online' }).catch(
          (error: unknown): RefreshOutcome => ({ kind: 'failed', reason: error instanceof Error ? error.message : String(error), durationMs: 0 }),
        ),
      };
      void created.done.then((outcome) => {
        created.settledAt = performance.now();
        // Once per render, not per bot waiting on it; buffered, so the answer never waits for the log.
        this.renderFacts.record({ hostId, url, dimensionId, trigger: 'edge_miss', attempt: 1, ...renderFactOf(outcome, 'edge', undefined) });
        setTimeout(() => this.flights.get(key) === created && this.flights.delete(key), FLIGHT_GRACE_MS).unref();
      });
      this.flights.set(key, created);
      flight = created;
    }
    const remaining = Math.max(0, this.config.edge.render_timeout_ms - (performance.now() - started));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), remaining)));
    try {
      return await Promise.race([flight.done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private answer(page: PageContext, hit: CacheHit, body: PageBody, cacheStatus: CacheStatus): EdgeAnswer {
    const entry = hit.entry;
    this.autorecache.served(entry);
    const snapshotAgeS = cacheStatus === 'hit' || cacheStatus === 'stale' ? Math.max(0, Math.floor((this.clock.now() - entry.createdAt) / 1000)) : null;
    return this.pageAnswer(page, { statusCode: entry.statusCode, headers: entry.headers }, body, cacheStatus, snapshotAgeS);
  }

  /** A page as the bot gets it: its status and stored headers plus the edge's own, the body gzipped when asked; recorded. */
  private pageAnswer(page: PageContext, stored: { statusCode: number; headers: StoredHeaders }, body: PageBody, cacheStatus: CacheStatus, snapshotAgeS: number | null): EdgeAnswer & { headers: Record<string, string> } {
    const gzip = body.raw.length > 0 && this.gzipAccepted.get(page.request.acceptEncoding ?? '');
    const sent = gzip ? this.bodies.gzipped(body) : body.raw;
    // Copied, then added to: as an object spread with these keys, V8 (Node 20) took about 3 µs per answer, more than all the rest of a hit.
    const headers: Record<string, string> = Object.assign({}, stored.headers);
    // The body depends on the dimension, chosen from the User-Agent.
    headers.vary = 'Accept-Encoding, User-Agent';
    headers['x-prerender-cache'] = cacheStatus;
    headers['x-request-id'] = page.requestId;
    headers['content-length'] = String(sent.length);
    if (gzip) headers['content-encoding'] = 'gzip';
    this.record(page, { statusCode: stored.statusCode, cacheStatus, title: body.title, snapshotAgeS, bytes: page.request.headOnly ? 0 : sent.length });
    return { statusCode: stored.statusCode, headers, body: sent, cacheStatus };
  }

  /**
   * A miss that could not be rendered in time (504) or at all (503). Why it
   * failed (an origin's address, a network error, a disk error) is logged
   * with the request id; the bot gets the code's generic message only.
   */
  private renderFailed(page: PageContext, code: 'RENDER_TIMEOUT' | 'RENDER_FAILED', reason: string): EdgeAnswer {
    this.logger.warn({ reqId: page.requestId, url: page.url, dimension: page.dimension.id, code, reason }, 'online render failed');
    return code === 'RENDER_TIMEOUT' ? this.failed(page, 504, code) : this.failed(page, 503, code, RENDER_RETRY_AFTER_S);
  }

  /**
   * A miss rendered (or fetched) but not stored, as the cache store could not
   * take it (a full disk, Redis down): the bot gets the page all the same,
   * marked `X-Prerender-Stored: no`, recorded as the miss or bypass it was.
   * It has no entry, so no autorecache; the next request renders again.
   */
  private answerUnstored(page: PageContext, unstored: UnstoredPage, reason: string): EdgeAnswer {
    this.logger.warn({ reqId: page.requestId, url: page.url, dimension: page.dimension.id, reason }, 'page served uncached: the cache store did not take it');
    const fetched = unstored.page;
    const body: PageBody = { raw: fetched.body, title: titleOf(fetched.body, fetched.headers['content-type']) };
    const answer = this.pageAnswer(page, fetched, body, unstored.cacheKind === 'bypass' ? 'bypass' : 'miss', null);
    answer.headers['x-prerender-stored'] = 'no';
    return answer;
  }

  /** An error answer for a page request (the code's generic message), recorded as a `miss` with its status. */
  private failed(page: PageContext, statusCode: number, code: EdgeErrorCode, retryAfterS?: string): EdgeAnswer {
    const answer = problem(statusCode, code, page.requestId);
    if (retryAfterS !== undefined) answer.headers['retry-after'] = retryAfterS;
    this.record(page, { statusCode, cacheStatus: 'miss', title: '', snapshotAgeS: null, bytes: page.request.headOnly ? 0 : answer.body.length });
    return { ...answer, cacheStatus: 'miss' };
  }

  private record(page: PageContext, served: { statusCode: number; cacheStatus: CacheStatus; title: string; snapshotAgeS: number | null; bytes: number }): void {
    if (!this.config.edge.record_requests) return;
    this.recorder.record({
      websiteId: page.website.id,
      host: page.hostname,
      url: page.url,
      pageTitle: served.title,
      statusCode: served.statusCode,
      botName: this.botNames.get(page.request.userAgent),
      userAgent: page.request.userAgent.slice(0, 1000),
      dimensionId: page.dimension.id,
      dimensionName: page.dimension.name,
      cacheStatus: served.cacheStatus,
      serveTimeMs: Math.round(performance.now() - page.started),
      snapshotAgeS: served.snapshotAgeS,
      bytes: served.bytes,
      servedAtMs: this.clock.now(),
      requestId: page.requestId,
    });
  }
}

interface PageContext {
  readonly website: Website;
  readonly hostId: number;
  readonly url: string;
  readonly hostname: string;
  readonly dimension: DimensionDefinition;
  readonly request: BotPageRequest;
  readonly requestId: string;
  readonly started: number;
}

/**
 * The page URL of a request target `/https://www.example.com/p?x=1`. A proxy
 * that merged the slashes of the scheme (`/https:/www…`) is forgiven.
 */
export function pageUrlOf(target: string): PageUrl | undefined {
  if (!target.startsWith('/')) return undefined;
  const raw = escapedWhole(target.slice(1)).replace(/^(https?):\/(?!\/)/i, '$1://');
  if (!/^https?:\/\//i.test(raw)) return undefined;
  const url = normalizeHttpUrl(raw);
  return url && { href: url.href, hostname: url.hostname };
}

/**
 * A page URL sent escaped as a whole, decoded once; anything else as it is:
 * - some integrations percent-encode it whole (`https%3A%2F%2Fhost%2Fp%3Fq%3D1`);
 * - nginx's `rewrite .* /$scheme://$host$request_uri? break;` of the common
 *   pre-rendering guides escapes the rewritten URI: `?` as `%3F`, `%` as
 *   `%25` (`/caf%C3%A9` arrives as `/caf%25C3%25A9`). No `?` but a `%3F`,
 *   or an escape escaped again (`%25` and two hex digits), means that, and
 *   decoding once undoes it (the open-source pre-rendering server decodes
 *   every URL once). A URL without a query whose path really holds `%3F` or
 *   `%25xx` is then read decoded: an edge case we accept.
 */
function escapedWhole(raw: string): string {
  const escaped = /^https?%3A/i.test(raw) || (!raw.includes('?') && /%3F|%25[0-9a-f]{2}/i.test(raw));
  if (!escaped) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** True when `Accept-Encoding` accepts gzip: an explicit gzip entry without `q=0`, or else `*` without `q=0`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  // An explicit gzip (or x-gzip) entry decides, `*` only when there is none (RFC 9110 §12.5.3): `gzip;q=0, *` refuses gzip.
  let wildcard: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const name = coding.trim();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (name !== '*') return accepted;
    wildcard ??= accepted;
  }
  return wildcard ?? false;
}

/**
 * What a bot is told of each error: a fixed sentence per code, never an
 * internal detail (a disk error, an origin's address); the detail is in the
 * log line carrying the same request id.
 */
const ERROR_MESSAGES: Readonly<Record<EdgeErrorCode, string>> = {
  UNAUTHENTICATED: 'missing or unknown X-Prerender-Token',
  INVALID_URL: 'the request path must be / followed by an absolute http(s) page URL',
  NOT_FOUND: "the page URL's host is not a host of this website",
  RENDER_TIMEOUT: 'the page was not rendered in time; try again later',
  RENDER_FAILED: 'the page could not be rendered; try again later',
  UNAVAILABLE: 'the page cannot be served right now; try again later',
};

/** An error answer of the edge: `{ code, message, requestId }` as JSON (the code's generic message), the request id in `X-Request-Id` too. */
export function problem(statusCode: number, code: EdgeErrorCode, requestId: string): EdgeAnswer & { headers: Record<string, string> } {
  const body = Buffer.from(JSON.stringify({ code, message: ERROR_MESSAGES[code], requestId }));
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length), 'x-request-id': requestId };
  return { statusCode, headers, body };
}
