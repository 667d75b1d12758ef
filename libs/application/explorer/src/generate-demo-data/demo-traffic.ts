import { classifyBot } from '@bpc/bots';
import { changesBetween, type PageFacts } from '@bpc/domain';
import { demoPageFacts } from './demo-page-facts';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, CacheStatus, envelope, type QueueEvent, type TriState, RenderOutcome, RenderRecorded, RenderTrigger, SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded, SearchPerformanceRow } from '@bpc/events';
import { demoRenderRecorded, seededRandom, serveTime, weighted } from './demo-events';
import { demoReceipts } from './demo-receipts';

export { seededRandom } from './demo-events';

const DAY_MS = 86_400_000;

export interface DemoTrafficOptions {
  readonly websiteId: string;
  /** The website's host: render outcomes are keyed by it. */
  readonly hostId: number;
  /** Hostname pages live on, e.g. www.example.com. */
  readonly hostname: string;
  readonly nowMs: number;
  readonly days: number;
  readonly requestsPerDay: number;
  readonly seed: number;
}

/**
 * A bot of the demo mix, by its User-Agent (the edge's classifier names it,
 * its category and operator, as it does for real traffic) and how the demo
 * site sees it.
 */
interface DemoBot {
  readonly ua: string;
  readonly mobile: boolean;
  /** Share of its requests whose `Accept` asked for Markdown (assistants fetching for a person). */
  readonly markdown?: number;
  /** Its operator publishes how to check it (IP ranges or reverse DNS): its requests are verified, bar an address seen for the first time. */
  readonly verifiable?: boolean;
  /** A scraper sending this User-Agent from an address its operator does not own: recorded `verified: no`, never rendered for. */
  readonly spoofed?: boolean;
  /** Path prefixes the demo site's robots.txt disallows for it. */
  readonly disallowed?: readonly string[];
}

const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** The demo site keeps AI training crawlers out of its docs, and SEO tools out altogether. */
const NO_TRAINING_ON_DOCS = ['/docs/'];

const BOTS: readonly (readonly [DemoBot, number])[] = [
  [{ ua: GOOGLEBOT_UA, mobile: false, verifiable: true }, 18],
  [{ ua: 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', mobile: true, verifiable: true }, 27],
  [{ ua: GOOGLEBOT_UA, mobile: false, spoofed: true }, 2],
  [{ ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', mobile: false, verifiable: true }, 13],
  [{ ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', mobile: false, verifiable: true, disallowed: NO_TRAINING_ON_DOCS }, 7],
  [{ ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', mobile: false, verifiable: true, markdown: 0.5 }, 5],
  [{ ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot', mobile: false, verifiable: true }, 3],
  [{ ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', mobile: false, disallowed: NO_TRAINING_ON_DOCS }, 4],
  [{ ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)', mobile: false, markdown: 0.7 }, 2],
  [{ ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', mobile: false, verifiable: true }, 3],
  [{ ua: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)', mobile: false, verifiable: true, markdown: 0.4 }, 2],
  [{ ua: 'CCBot/2.0 (https://commoncrawl.org/faq/)', mobile: false, disallowed: NO_TRAINING_ON_DOCS }, 2],
  [{ ua: 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)', mobile: false, verifiable: true }, 4],
  [{ ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 (Applebot/0.1)', mobile: true, verifiable: true }, 4],
  [{ ua: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', mobile: false }, 4],
  [{ ua: 'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)', mobile: false, verifiable: true }, 2],
  [{ ua: 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', mobile: false, verifiable: true }, 3],
  [{ ua: 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', mobile: false, disallowed: ['/'] }, 3],
  [{ ua: 'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)', mobile: false }, 1],
];

/** Share of a verifiable bot's requests from an address not checked yet (the edge checks in the background): `unknown`. */
const UNCHECKED_ADDRESS_SHARE = 0.03;
/** A spoofed bot is answered from the cache only, never rendered for (`spoofed_bots: serve_cached_only`): a page not cached is refused 403, recorded as a miss. */
const SPOOFED_STATUS: readonly (readonly [number, number])[] = [[200, 82], [301, 3], [404, 7], [403, 8]];
const SPOOFED_CACHE: readonly (readonly [CacheStatus, number])[] = [['hit', 85], ['stale', 15]];

/** What the demo site's robots.txt says of this bot and URL. */
function robotsAllowed(bot: DemoBot, url: string): TriState {
  const path = new URL(url).pathname;
  return bot.disallowed?.some((prefix) => path.startsWith(prefix)) ? 'no' : 'yes';
}

function verification(bot: DemoBot, random: () => number): TriState {
  if (bot.spoofed) return 'no';
  if (!bot.verifiable) return 'unknown';
  return random() < UNCHECKED_ADDRESS_SHARE ? 'unknown' : 'yes';
}

/** A 503 or 504 is what the edge answers when a miss's render fails or times out: each one is a failed render below. */
const STATUS: readonly (readonly [number, number])[] = [[200, 90], [301, 3], [404, 5], [503, 1], [504, 1]];
const CACHE: readonly (readonly [CacheStatus, number])[] = [['hit', 72], ['stale', 10], ['miss', 12], ['bypass', 6]];
const TOPICS = ['pricing', 'features', 'rendering', 'seo', 'javascript', 'crawl-budget', 'core-web-vitals', 'sitemaps', 'caching', 'spa', 'react', 'angular', 'vue', 'nextjs', 'indexing'];

export interface DemoPage {
  readonly url: string;
  readonly title: string;
}

/** A site of `count` pages, ordered from most to least popular. */
export function demoPages(hostname: string, count = 1500): DemoPage[] {
  const base = `https://${hostname}`;
  const fixed: DemoPage[] = [
    { url: `${base}/`, title: 'Example — pre-rendering for bots' },
    { url: `${base}/pricing`, title: 'Pricing — Example' },
    { url: `${base}/features`, title: 'Features — Example' },
    { url: `${base}/docs`, title: 'Documentation — Example' },
    { url: `${base}/blog`, title: 'Blog — Example' },
  ];
  const pages = [...fixed];
  for (let i = 0; pages.length < count; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const kind = i % 3;
    if (kind === 0) pages.push({ url: `${base}/blog/${topic}-guide-${i}`, title: `A guide to ${topic.replace(/-/g, ' ')} (part ${i}) — Example blog` });
    else if (kind === 1) pages.push({ url: `${base}/docs/${topic}/page-${i}`, title: `${topic.replace(/-/g, ' ')}: reference ${i} — Example docs` });
    else pages.push({ url: `${base}/products/${i}?ref=${topic}`, title: `Product ${i} — Example store` });
  }
  return pages;
}

/** Zipf-like popularity: page i is drawn with weight 1/(i+1)^1.1 via a precomputed CDF. */
function zipfSampler(n: number, random: () => number): () => number {
  const cdf: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) cdf.push((sum += 1 / Math.pow(i + 1, 1.1)));
  return () => {
    const r = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** One day of demo traffic: the bot requests, and the renders that served them or kept pages fresh. */
export interface DemoDay {
  readonly botRequests: BotRequestRecorded[];
  readonly renders: RenderRecorded[];
  /** The receipted recaches asked for this day, each request then its outcomes (`demoReceipts`): the queue topic's. */
  readonly queue: QueueEvent[];
  /** Their receipt ids. */
  readonly receipts: string[];
}

/** Why a miss's render failed, by the status the edge answered (the renderer's own words). */
const MISS_FAILURES: Readonly<Record<number, readonly string[]>> = {
  503: ['origin answered 502', 'origin answered 500'],
  504: ['timed out after 20 s'],
};

/** How the scheduler's recaches of popular pages end, with the reasons the renderer gives. */
const RECACHE_OUTCOMES: readonly (readonly [{ outcome: RenderOutcome; reason: string; status: number }, number])[] = [
  [{ outcome: 'stored', reason: '', status: 200 }, 85],
  [{ outcome: 'kept_smaller', reason: "under 30% of the last good page's size", status: 200 }, 4],
  [{ outcome: 'kept_soft_404', reason: 'a "not found" title on a page under 4096 bytes', status: 200 }, 3],
  [{ outcome: 'kept_blank', reason: 'no visible text', status: 0 }, 2],
  [{ outcome: 'retry_scheduled', reason: 'timed out after 20 s', status: 0 }, 4],
  [{ outcome: 'gave_up', reason: 'origin answered 502', status: 0 }, 2],
];

/** Scheduler recaches per day, against bot requests: autorecache keeps the popular pages fresh. */
const RECACHES_PER_REQUEST = 0.03;

/** The facts of each URL × dimension's cache entry, as the renderer reads them before it stores a new page. */
type CachedFacts = Map<string, PageFacts>;

/**
 * A render as the renderer records it: a stored page replaces the entry, and
 * what differs from the entry's facts is its `changes` (none when the entry
 * had no facts, or the page has none); other outcomes leave the entry.
 */
function withChanges(render: RenderRecorded, entries: CachedFacts): RenderRecorded {
  const { payload } = render;
  if (payload.outcome !== 'stored') return render;
  const key = `${payload.url}|${payload.dimensionId}`;
  const before = entries.get(key);
  if (!payload.facts) {
    entries.delete(key);
    return render;
  }
  entries.set(key, payload.facts);
  const changes = before ? changesBetween(before, payload.facts) : [];
  return changes.length ? { ...render, payload: { ...payload, changes } } : render;
}

/**
 * Synthetic bot traffic, one day at a time, oldest first: a bot mix,
 * Zipf-skewed URL popularity, weekday rhythm, status codes, cache outcomes
 * and serve times that depend on them. Every miss comes with the render that
 * served it, at the same moment: stored, or failed when the edge answered
 * 503/504 (so the overview's "renders failed" are the Renders page's failed
 * edge misses, one for one); and the scheduler's recaches of popular pages
 * add the other outcomes. Who reads: search engines, AI crawlers and
 * assistants (some answered in Markdown), social and SEO bots, named by the
 * edge's classifier; a few scrapers claiming to be Googlebot (`verified:
 * no`, served from the cache only, a page not cached refused 403 without a
 * render), and bots fetching what the site's
 * robots.txt disallows them. Pages rendered 200 carry their facts, and a
 * few top pages change in the last days (`demoPageFacts`): what SEO health
 * shows. A few recaches were asked for with a receipt (`demoReceipts`): their
 * renders are the scheduler's, and no other recache of their entries ends
 * before them, so each receipt reads what the Renders page shows.
 * Deterministic for a seed and clock.
 */
export function* demoTraffic(options: DemoTrafficOptions): Generator<DemoDay> {
  const random = seededRandom(options.seed);
  const pages = demoPages(options.hostname);
  const pick = zipfSampler(pages.length, random);
  const today = Math.floor(options.nowMs / DAY_MS) * DAY_MS;
  const bots = BOTS.map(([bot, weight]) => [{ ...bot, identity: classifyBot(bot.ua) }, weight] as const);
  const entries: CachedFacts = new Map();
  const receipts = demoReceipts(options, pages);
  // A receipt reads the first render of each entry that began after its request: no other recache of the entry ends in its span.
  const inReceiptSpan = (url: string, dimensionId: number, atMs: number) => receipts.some((r) => { const span = r.spans.get(`${url}|${dimensionId}`); return span !== undefined && atMs >= span.from && atMs <= span.to; });
  for (let d = options.days - 1; d >= 0; d--) {
    const dayStart = today - d * DAY_MS;
    const todays = receipts.filter((r) => r.requestedAt >= dayStart && r.requestedAt < dayStart + DAY_MS);
    const weekday = new Date(dayStart).getUTCDay();
    const volume = Math.round(options.requestsPerDay * (weekday === 0 || weekday === 6 ? 0.75 : 1.1) * (0.85 + 0.3 * random()));
    const botRequests: BotRequestRecorded[] = [];
    const renders: RenderRecorded[] = [];
    for (let i = 0; i < volume; i++) {
      const servedMs = dayStart + Math.floor(random() * DAY_MS);
      if (servedMs > options.nowMs) continue;
      const pageIndex = pick();
      const page = pages[pageIndex];
      const bot = weighted(random, bots);
      const status = weighted(random, bot.spoofed ? SPOOFED_STATUS : STATUS);
      const drawn = status >= 500 ? 'miss' : weighted(random, bot.spoofed ? SPOOFED_CACHE : CACHE);
      // The edge's 403 UNVERIFIED_BOT: no page was cached, none was rendered.
      const refused = bot.spoofed === true && status === 403;
      const cache = refused ? 'miss' : drawn;
      const median = refused ? 4 : cache === 'hit' ? 18 : cache === 'stale' ? 25 : cache === 'bypass' ? 350 : 1800;
      const requestId = `demo-${options.seed}-${dayStart / DAY_MS}-${i}`;
      const serveTimeMs = serveTime(random, median);
      const format = bot.markdown !== undefined && random() < bot.markdown ? 'markdown' : 'html';
      const htmlBytes = status === 200 ? 20_000 + Math.floor(random() * 180_000) : 400 + Math.floor(random() * 2000);
      // The page's Markdown keeps its content and drops its markup: a fraction of the HTML.
      const bytes = format === 'markdown' ? Math.round(htmlBytes / 6) : htmlBytes;
      const dimensionId = bot.mobile ? 2 : 1;
      botRequests.push(
        envelope(
          BOT_REQUEST_RECORDED,
          1,
          {
            websiteId: options.websiteId,
            host: options.hostname,
            url: page.url,
            pageTitle: status === 200 ? page.title : '',
            statusCode: status,
            botName: bot.identity.name,
            userAgent: bot.ua,
            dimensionId,
            dimensionName: bot.mobile ? 'mobile' : 'desktop',
            cacheStatus: cache,
            serveTimeMs,
            snapshotAgeS: cache === 'hit' || cache === 'stale' ? Math.floor(random() * (cache === 'stale' ? 400_000 : 86_400)) : null,
            bytes,
            servedAt: new Date(servedMs).toISOString(),
            requestId,
            format,
            botCategory: bot.identity.category,
            botOperator: bot.identity.operator,
            verified: verification(bot, random),
            robotsAllowed: robotsAllowed(bot, page.url),
          },
          { id: requestId, occurredAt: new Date(servedMs), key: options.websiteId },
        ),
      );
      if (cache === 'miss' && !refused) {
        const failures = MISS_FAILURES[status];
        const outcome = failures ? { outcome: 'failed' as const, reason: failures[Math.floor(random() * failures.length)]!, statusCode: 0, bytes: 0 } : { outcome: 'stored' as const, reason: '', statusCode: status, bytes };
        const facts = outcome.outcome === 'stored' && status === 200 ? { facts: demoPageFacts({ ...page, index: pageIndex }, options.hostname, servedMs, today, htmlBytes) } : {};
        renders.push(demoRenderRecorded(options.hostId, `${requestId}-render`, servedMs, { url: page.url, dimensionId, trigger: 'edge_miss', ...outcome, renderMs: Math.max(1, serveTimeMs - 5), attempt: 1, ...facts }));
      }
    }
    const recaches = Math.round(volume * RECACHES_PER_REQUEST);
    for (let i = 0; i < recaches; i++) {
      const renderedMs = dayStart + Math.floor(random() * DAY_MS);
      if (renderedMs > options.nowMs) continue;
      const pageIndex = Math.floor(Math.pow(random(), 3) * 200);
      const page = pages[pageIndex]!;
      const { outcome, reason, status } = weighted(random, RECACHE_OUTCOMES);
      const trigger: RenderTrigger = random() < 0.8 ? 'autorecache' : 'recache_normal';
      const renderMs = serveTime(random, 1600);
      const id = `demo-${options.seed}-${dayStart / DAY_MS}-recache-${i}`;
      const bytes = status === 0 ? 0 : 20_000 + Math.floor(random() * 180_000);
      // A page smaller than the last good one was still read (its facts say what the origin serves now); a soft 404's are left out of the demo.
      const facts = status === 200 && (outcome === 'stored' || outcome === 'kept_smaller') ? { facts: demoPageFacts({ ...page, index: pageIndex }, options.hostname, renderedMs, today, bytes) } : {};
      const dimensionId = random() < 0.6 ? 2 : 1;
      if (inReceiptSpan(page.url, dimensionId, renderedMs)) continue;
      renders.push(demoRenderRecorded(options.hostId, id, renderedMs, { url: page.url, dimensionId, trigger, outcome, reason, statusCode: status, renderMs, bytes, attempt: outcome === 'gave_up' ? 3 : 1, entryId: `${id}-entry`, ...facts }));
    }
    renders.push(...todays.flatMap((r) => r.renders));
    botRequests.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
    renders.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
    yield { botRequests, renders: renders.map((render) => withChanges(render, entries)), queue: todays.flatMap((r) => r.queue), receipts: todays.map((r) => r.receiptId) };
  }
}

const QUERY_WORDS = ['prerender', 'seo', 'javascript seo', 'render spa for google', 'dynamic rendering', 'crawl budget', 'react seo', 'angular seo', 'vue seo', 'nextjs ssr', 'pricing', 'bot cache', 'googlebot javascript', 'core web vitals', 'sitemap generator'];

/** Whole days of search performance (pages and queries) for the same site, ending yesterday. */
export function* demoSearchDays(options: DemoTrafficOptions): Generator<SearchPerformanceRecorded[]> {
  const random = seededRandom(options.seed + 1);
  const pages = demoPages(options.hostname).slice(0, 300);
  const queries = QUERY_WORDS.flatMap((w, i) => [w, `${w} guide`, `best ${w}`, `${w} ${2020 + (i % 6)}`, `how to ${w}`]);
  const today = Math.floor(options.nowMs / DAY_MS) * DAY_MS;
  const rowsFor = (keys: readonly string[]): SearchPerformanceRow[] =>
    keys.flatMap((key, rank) => {
      const impressions = Math.round((4000 / Math.pow(rank + 1, 0.9)) * (0.7 + 0.6 * random()));
      if (impressions === 0) return [];
      const position = Math.round((1 + rank / 8 + random() * 4) * 100) / 100;
      const clicks = Math.round(impressions * Math.max(0.005, 0.3 / position) * (0.8 + 0.4 * random()));
      return [{ key, clicks, impressions, position }];
    });
  for (let d = options.days; d >= 1; d--) {
    const dayStart = today - d * DAY_MS;
    const date = new Date(dayStart).toISOString().slice(0, 10);
    const meta = (grain: string) => ({ id: `demo-search-${options.seed}-${date}-${grain}`, occurredAt: new Date(options.nowMs), key: options.websiteId });
    yield [
      envelope(SEARCH_PERFORMANCE_RECORDED, 1, { websiteId: options.websiteId, date, grain: 'page', rows: rowsFor(pages.map((p) => p.url)), source: 'demo-data' }, meta('page')),
      envelope(SEARCH_PERFORMANCE_RECORDED, 1, { websiteId: options.websiteId, date, grain: 'query', rows: rowsFor(queries), source: 'demo-data' }, meta('query')),
    ];
  }
}
