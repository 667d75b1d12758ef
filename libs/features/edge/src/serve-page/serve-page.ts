import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CACHE_STORE, CacheEntry, CacheHit, CacheStore, isFresh, StoredHeaders } from '@bpc/cache-store';
import type { AppConfig } from '@bpc/config';
import { Clock, DimensionDefinition, HostCatalog, HostDefinition } from '@bpc/domain';
import { LogThrottle, type BoundedMemo } from '@bpc/support';
import type { CacheStatus } from '@bpc/events';
import { APP_CONFIG, CLOCK, LOGGER, METRICS_REGISTRY } from '@bpc/platform';
import { PAGE_REFRESHER, PageRefresher, UnstoredPage } from '@bpc/renderer';
import { BOT_VERIFIER, BotVerifier } from '@bpc/bot-verification';
import { ROBOTS_TXT_KEEPER, RobotsTxtKeeper } from '@bpc/robots-txt';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { AnswerFormat, answerFormatOf } from '../answer-format/answer-format';
import { ClaimedBots } from '../claimed-bot/claimed-bots';
import { servingLeave } from '../claimed-bot/spoofed-bot-policy';
import { ClientAddresses } from '../client-address/client-address';
import { BotRequestRecorder } from '../record-bot-request/bot-request-recorder';
import { RenderFactRecorder } from '../record-render/render-fact-recorder';
import { RobotsVerdicts } from '../robots-verdict/robots-verdicts';
import { ScheduleAutorecacheWhenPageServed } from '../schedule-autorecache/schedule-autorecache-when-page-served';
import { LlmsTxtFiles } from '../serve-llms-txt/llms-txt-files';
import { AgentMarkdown, MarkdownBody } from '../serve-markdown/agent-markdown';
import { markdownConverter } from '../serve-markdown/markdown-converter';
import { markdownMetrics } from '../serve-markdown/markdown-metrics';
import { convertsToMarkdown, isListedAgent } from '../serve-markdown/markdown-wanted';
import { acceptsGzip } from './accepts-gzip';
import { CachedPages, CacheUnreadableError } from './cached-pages';
import { EdgeAnswer, EdgeErrorCode, problem } from './edge-answer';
import { PageBodies, PageBody, titleOf } from './page-bodies';
import type { BotPageRequest, PageRequest } from './page-request';
import { pageUrlOf } from './page-url';
import { requestMemo } from './request-memo';
import { ServedRequests } from './served-requests';
import { SharedRenders } from './shared-renders';
import { Website, WebsiteTokens } from './website-tokens';

/** `Retry-After` of a failed render, and of a cache that could not be read (a store outage is usually shorter). */
const RENDER_RETRY_AFTER_S = '60';
const CACHE_RETRY_AFTER_S = '10';
/** Every page answer may differ by these request headers: the format (`Accept`), gzip, and the dimension chosen from the User-Agent. */
const VARY = 'Accept, Accept-Encoding, User-Agent';
const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/**
 * Serves one bot request: website by token (`WebsiteTokens`), page URL
 * (`pageUrlOf`), dimension by User-Agent, then the cache entry (`CachedPages`)
 * — fresh (`hit`), stale (`stale`, served at once; its autorecache entry is
 * already due), or none (`miss`: rendered now on an online tab and waited
 * for, up to `edge.render_timeout_ms`, one render per page shared by the bots
 * asking for it: `SharedRenders`). Every answer to an accepted request is
 * recorded (`ServedRequests`). An agent that asks for Markdown (or that its
 * website lists) gets a render's Markdown (`AgentMarkdown`), and a website
 * may have the edge serve its `llms.txt` (`LlmsTxtFiles`): docs/agents.md.
 * A bot whose claim is proven false gets what its website's `spoofed_bots`
 * policy says (`servingLeave`).
 */
@Injectable()
export class ServePage implements OnApplicationShutdown {
  private readonly websites: WebsiteTokens;
  private readonly bodies: PageBodies;
  private readonly pages: CachedPages;
  private readonly renders: SharedRenders;
  private readonly served: ServedRequests;
  private readonly claimedBots: ClaimedBots;
  /** During a store outage every request fails the same way: a line a second for unreadable caches, one per 10 s for pages served unstored. */
  private readonly cacheUnreadableLog = new LogThrottle(1_000);
  private readonly unstoredLog = new LogThrottle(10_000);
  private readonly pageUrls = requestMemo(pageUrlOf);
  private readonly gzipAccepted = requestMemo(acceptsGzip);
  private readonly dimensions = new Map<number, BoundedMemo<DimensionDefinition>>();
  private readonly formatsAsked = requestMemo(answerFormatOf);
  /** Per website with `markdown_for_agents`: whether a User-Agent is one of them. */
  private readonly listedAgents = new Map<string, BoundedMemo<boolean>>();
  private readonly converter: ReturnType<typeof markdownConverter>;
  private readonly markdown: AgentMarkdown;
  private readonly llmsTxtFiles: LlmsTxtFiles;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CACHE_STORE) cache: CacheStore,
    @Inject(PAGE_REFRESHER) refresher: PageRefresher,
    private readonly hosts: HostCatalog,
    recorder: BotRequestRecorder,
    private readonly autorecache: ScheduleAutorecacheWhenPageServed,
    renderFacts: RenderFactRecorder,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(BOT_VERIFIER) verifier: BotVerifier,
    @Inject(ROBOTS_TXT_KEEPER) robotsTxt: RobotsTxtKeeper,
  ) {
    this.websites = new WebsiteTokens(config.websites);
    this.bodies = new PageBodies(config.edge.body_cache_mb * 1024 * 1024);
    this.pages = new CachedPages(cache, this.bodies);
    this.renders = new SharedRenders(refresher, renderFacts, { botWaitMs: config.edge.render_timeout_ms, renderMs: config.recache.timeout_per_url * 1_000 });
    this.served = new ServedRequests(config.edge.record_requests, clock, recorder, new RobotsVerdicts(config.edge.robots_txt.enabled ? robotsTxt : undefined, config.hosts));
    this.claimedBots = new ClaimedBots(verifier, new ClientAddresses(config.edge.trusted_proxies));
    this.converter = markdownConverter(logger.child({ component: 'agent-markdown' }));
    this.markdown = new AgentMarkdown(config.edge.markdown_cache_mb * 1024 * 1024, this.converter.convert, markdownMetrics(registry, () => this.markdown.usage().bytes, logger));
    this.llmsTxtFiles = new LlmsTxtFiles(cache, () => clock.now(), config.edge.llms_txt_refresh_s * 1_000, (error, websiteId) =>
      logger.warn({ err: error, website: websiteId }, 'llms.txt could not be generated again; the previous one is served'),
    );
    for (const website of config.websites) {
      const tokens = this.websites.agentsOf(website.id)?.markdownFor ?? [];
      if (tokens.length > 0) this.listedAgents.set(website.id, requestMemo((userAgent) => isListedAgent(tokens, userAgent)));
    }
    for (const host of config.hosts) {
      this.dimensions.set(host.host_id, requestMemo((userAgent) => hosts.dimensionForUserAgent(host.host_id, userAgent)!));
    }
  }

  async serve(request: BotPageRequest): Promise<EdgeAnswer> {
    const { requestId, receivedAt: started } = request;
    const website = this.websites.websiteOf(request.token);
    if (!website) return problem(401, 'UNAUTHENTICATED', requestId);
    const url = this.pageUrls.get(request.target);
    if (!url) return problem(400, 'INVALID_URL', requestId);
    const host = this.hosts.hostForHostname(url.hostname);
    if (!host || host.host_id !== website.hostId) return problem(404, 'NOT_FOUND', requestId);
    const dimension = this.dimensions.get(host.host_id)!.get(request.userAgent);
    const bot = this.claimedBots.of(request.userAgent, request.peerAddress, request.forwardedFor);
    const page: PageRequest = { website, hostId: host.host_id, url: url.href, hostname: url.hostname, dimension, bot, request, requestId, started, wants: this.formatWanted(website, request) };
    const leave = servingLeave(bot.verified, website.spoofedBots);
    if (leave === 'refuse') return this.failed(page, 403, 'UNVERIFIED_BOT');
    try {
      if (website.agents.llmsTxt && isLlmsTxt(url.href)) return await this.serveLlmsTxt(page, host);
      return await this.servePage(page, leave === 'serve');
    } catch (error) {
      if (!(error instanceof CacheUnreadableError)) throw error;
      // The cache (its store, its files) could not be read: a 503 the bot retries, recorded like any answer.
      this.logCacheUnreadable(error.cause, requestId);
      return this.failed(page, 503, 'UNAVAILABLE', CACHE_RETRY_AFTER_S);
    }
  }

  /** Markdown when `Accept` prefers it (q-values and all) or the website lists the agent; else HTML. */
  private formatWanted(website: Website, request: BotPageRequest): AnswerFormat {
    if (this.listedAgents.get(website.id)?.get(request.userAgent)) return 'markdown';
    return request.accept ? this.formatsAsked.get(request.accept) : 'html';
  }

  /** The cached page, else (when `mayRender`) a render; a bot proven false under `serve_cached_only` gets 403 on a miss, and no render starts. */
  private async servePage(page: PageRequest, mayRender: boolean): Promise<EdgeAnswer> {
    const { hostId, url, dimension, started } = page;
    const cached = await this.pages.get(hostId, url, dimension.id);
    if (cached) {
      const now = this.clock.now();
      return this.answer(page, cached.hit, cached.body, isFresh(cached.hit.entry, now) ? 'hit' : 'stale');
    }
    if (!mayRender) return this.failed(page, 403, 'UNVERIFIED_BOT');
    const outcome = await this.renders.outcome(hostId, url, dimension.id, started);
    if (outcome === 'timeout') return this.renderFailed(page, 'RENDER_TIMEOUT', `not rendered within edge.render_timeout_ms (${this.config.edge.render_timeout_ms} ms)`);
    if (outcome.kind === 'failed') {
      if (outcome.unstored) return this.answerUnstored(page, outcome.unstored, outcome.reason);
      return this.renderFailed(page, outcome.reason.startsWith('timed out') ? 'RENDER_TIMEOUT' : 'RENDER_FAILED', outcome.reason);
    }
    const fresh = await this.pages.get(hostId, url, dimension.id);
    if (!fresh) return this.renderFailed(page, 'RENDER_FAILED', 'the rendered page was invalidated before it could be served');
    const status: CacheStatus = outcome.kind === 'kept' ? 'hit' : fresh.hit.entry.kind === 'bypass' ? 'bypass' : 'miss';
    return this.answer(page, fresh.hit, fresh.body, status);
  }

  /** At most one line a second: during a store outage every request fails the same way. */
  private logCacheUnreadable(error: unknown, requestId: string): void {
    const held = this.cacheUnreadableLog.pass();
    if (held === undefined) return;
    this.logger.error({ err: error, reqId: requestId, alike: held }, 'edge cache unreadable: answering 503');
  }

  private answer(page: PageRequest, hit: CacheHit, body: PageBody, cacheStatus: CacheStatus): EdgeAnswer | Promise<EdgeAnswer> {
    const entry = hit.entry;
    this.autorecache.served(entry);
    const snapshotAgeS = cacheStatus === 'hit' || cacheStatus === 'stale' ? Math.max(0, Math.floor((this.clock.now() - entry.createdAt) / 1000)) : null;
    if (page.wants === 'markdown' && convertsToMarkdown(entry)) {
      // Converted once per stored render: a hit on a converted render answers at once, a first request waits for its conversion.
      const markdown = this.markdown.of(entry, page.url, body.raw);
      if (markdown instanceof Promise) return markdown.then((converted) => this.answerIn(page, entry, body, cacheStatus, snapshotAgeS, converted));
      return this.answerIn(page, entry, body, cacheStatus, snapshotAgeS, markdown);
    }
    return this.pageAnswer(page, { statusCode: entry.statusCode, headers: entry.headers }, body, cacheStatus, snapshotAgeS);
  }

  /** The render's Markdown when there is one (a conversion that failed has none), else its page. */
  private answerIn(page: PageRequest, entry: CacheEntry, body: PageBody, cacheStatus: CacheStatus, snapshotAgeS: number | null, markdown: MarkdownBody | undefined): EdgeAnswer {
    if (!markdown) return this.pageAnswer(page, { statusCode: entry.statusCode, headers: entry.headers }, body, cacheStatus, snapshotAgeS);
    const gzip = this.gzipAccepted.get(page.request.acceptEncoding ?? '');
    const sent = gzip ? markdown.gzipped : markdown.raw;
    const headers: Record<string, string> = Object.assign({}, entry.headers);
    headers['content-type'] = MARKDOWN_TYPE;
    headers['x-markdown-tokens'] = String(markdown.tokens);
    this.agentHeaders(page, headers, sent, gzip, cacheStatus);
    this.served.record(page, { statusCode: entry.statusCode, cacheStatus, title: body.title, snapshotAgeS, bytes: page.request.headOnly ? 0 : sent.length, format: 'markdown' });
    return { statusCode: entry.statusCode, headers, body: sent, cacheStatus };
  }

  /** The edge's own headers of an answer for agents (Markdown, llms.txt), `Content-Signal` when the website sets one. */
  private agentHeaders(page: PageRequest, headers: Record<string, string>, sent: Buffer, gzip: boolean, cacheStatus: CacheStatus): void {
    const signal = page.website.agents.contentSignal;
    if (signal) headers['content-signal'] = signal;
    headers.vary = VARY;
    headers['x-prerender-cache'] = cacheStatus;
    headers['x-request-id'] = page.requestId;
    headers['content-length'] = String(sent.length);
    if (gzip) headers['content-encoding'] = 'gzip';
  }

  /**
   * The website's `llms.txt`, generated from its host's cached pages
   * (`LlmsTxtFiles`): text/plain, or text/markdown when `Accept` prefers it;
   * recorded as a `hit` in Markdown, its age that of the generated file.
   */
  private async serveLlmsTxt(page: PageRequest, host: HostDefinition): Promise<EdgeAnswer> {
    const settings = page.website.agents.llmsTxt!;
    const site = { name: settings.name ?? host.hostnames[0] ?? page.hostname, summary: settings.summary };
    let file;
    try {
      file = await this.llmsTxtFiles.of(page.website.id, page.hostId, site);
    } catch (error) {
      throw new CacheUnreadableError('the cache could not be listed for llms.txt', { cause: error });
    }
    const gzip = this.gzipAccepted.get(page.request.acceptEncoding ?? '');
    const sent = gzip ? file.gzipped : file.text;
    const headers: Record<string, string> = { 'content-type': page.wants === 'markdown' ? MARKDOWN_TYPE : 'text/plain; charset=utf-8' };
    this.agentHeaders(page, headers, sent, gzip, 'hit');
    const snapshotAgeS = Math.max(0, Math.floor((this.clock.now() - file.generatedAt) / 1000));
    this.served.record(page, { statusCode: 200, cacheStatus: 'hit', title: site.name, snapshotAgeS, bytes: page.request.headOnly ? 0 : sent.length, format: 'markdown' });
    return { statusCode: 200, headers, body: sent, cacheStatus: 'hit' };
  }

  /** A page as the bot gets it: its status and stored headers plus the edge's own, the body gzipped when asked; recorded. */
  private pageAnswer(page: PageRequest, stored: { statusCode: number; headers: StoredHeaders }, body: PageBody, cacheStatus: CacheStatus, snapshotAgeS: number | null): EdgeAnswer & { headers: Record<string, string> } {
    const gzip = body.raw.length > 0 && this.gzipAccepted.get(page.request.acceptEncoding ?? '');
    const sent = gzip ? this.bodies.gzipped(body) : body.raw;
    // Copied, then added to: as an object spread with these keys, V8 (Node 20) took about 3 µs per answer, more than all the rest of a hit.
    const headers: Record<string, string> = Object.assign({}, stored.headers);
    headers.vary = VARY;
    headers['x-prerender-cache'] = cacheStatus;
    headers['x-request-id'] = page.requestId;
    headers['content-length'] = String(sent.length);
    if (gzip) headers['content-encoding'] = 'gzip';
    this.served.record(page, { statusCode: stored.statusCode, cacheStatus, title: body.title, snapshotAgeS, bytes: page.request.headOnly ? 0 : sent.length, format: 'html' });
    return { statusCode: stored.statusCode, headers, body: sent, cacheStatus };
  }

  /**
   * A miss that could not be rendered in time (504) or at all (503). Why it
   * failed (an origin's address, a network error, a disk error) is logged
   * with the request id; the bot gets the code's generic message only.
   */
  private renderFailed(page: PageRequest, code: 'RENDER_TIMEOUT' | 'RENDER_FAILED', reason: string): EdgeAnswer {
    this.logger.warn({ reqId: page.requestId, url: page.url, dimension: page.dimension.id, code, reason }, 'online render failed');
    return code === 'RENDER_TIMEOUT' ? this.failed(page, 504, code) : this.failed(page, 503, code, RENDER_RETRY_AFTER_S);
  }

  /**
   * A miss rendered (or fetched) but not stored, as the cache store could not
   * take it (a full disk, Redis or the object store down): the bot gets the page all the same,
   * marked `X-Prerender-Stored: no`, recorded as the miss or bypass it was.
   * It has no entry, so no autorecache; the next request renders again.
   */
  private answerUnstored(page: PageRequest, unstored: UnstoredPage, reason: string): EdgeAnswer {
    const held = this.unstoredLog.pass();
    if (held !== undefined) this.logger.warn({ reqId: page.requestId, url: page.url, dimension: page.dimension.id, reason, alike: held }, 'page served uncached: the cache store did not take it');
    const fetched = unstored.page;
    const body: PageBody = { raw: fetched.body, title: titleOf(fetched.body, fetched.headers['content-type']) };
    const answer = this.pageAnswer(page, fetched, body, unstored.cacheKind === 'bypass' ? 'bypass' : 'miss', null);
    answer.headers['x-prerender-stored'] = 'no';
    return answer;
  }

  /** An error answer for a page request (the code's generic message), recorded as a `miss` with its status. */
  private failed(page: PageRequest, statusCode: number, code: EdgeErrorCode, retryAfterS?: string): EdgeAnswer {
    const answer = problem(statusCode, code, page.requestId);
    if (retryAfterS !== undefined) answer.headers['retry-after'] = retryAfterS;
    this.served.record(page, { statusCode, cacheStatus: 'miss', title: '', snapshotAgeS: null, bytes: page.request.headOnly ? 0 : answer.body.length, format: 'html' });
    return { ...answer, cacheStatus: 'miss' };
  }

  /** Ends the conversion thread (conversions in flight are answered first). */
  async onApplicationShutdown(): Promise<void> {
    await this.converter.close();
  }
}

/** The request is for the site's `/llms.txt` itself (no query). */
const isLlmsTxt = (href: string): boolean => href.endsWith('/llms.txt') && new URL(href).pathname === '/llms.txt';
