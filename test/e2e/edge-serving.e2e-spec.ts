import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { sha256Hex } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { bypassHost, DaemonClient, gate, RawAnswer, rawRequest, RuntimeMode, TestClock, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'edge-test-token';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const GPTBOT_MOBILE = 'Mozilla/5.0 Mobile (compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const page = (p: string) => `https://www.example.com${p}`;

interface OriginPage {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Slow on purpose: the answer comes this long after the request. */
  delayMs?: number;
  /** Held: the answer comes once this resolves (see `gate`). */
  heldUntil?: Promise<void>;
}

/** A real origin whose pages the test sets per path; counts fetches per path (one fetch = one render). */
class Origin {
  readonly hits = new Map<string, number>();
  readonly pages = new Map<string, OriginPage>();
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const p = this.pages.get(path) ?? {};
      const version = this.hits.get(path);
      const answer = () => {
        res.writeHead(p.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...p.headers });
        res.end(p.body ?? `<html><head><title>Page ${path} v${version}</title></head><body>${'x'.repeat(2000)} v${version}</body></html>`);
      };
      void (p.heldUntil ?? Promise.resolve()).then(() => setTimeout(answer, p.delayMs ?? 0));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  hitsOf(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Raw HTTP (fetch would decompress gzip and refuse oversized headers). */
const get = (base: string, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> => rawRequest(base, target, { method, headers });

/** The version the origin wrote into a page's body (its fetch count when it rendered). */
const versionServed = (body: Buffer): number => Number(/ v(\d+)<\/body>/.exec(body.toString())?.[1] ?? 0);

const bot = (ua = GOOGLEBOT, extra: Record<string, string> = {}) => ({ 'x-prerender-token': TOKEN, 'user-agent': ua, ...extra });

describe.each<RuntimeMode>(['standalone', 'cluster'])('edge serving (%s mode)', (mode) => {
  let running: RunningApps;
  let origin: Origin;
  let edge: string;
  let clock: TestClock;
  let daemon: DaemonClient;

  beforeAll(async () => {
    origin = new Origin();
    const originUrl = await origin.start();
    clock = new TestClock();
    const config = testConfig(mode, {
      scheduler: { tick_ms: 50 },
      edge: { render_timeout_ms: 1_500, record_flush_ms: 50 },
      hosts: [
        bypassHost(originUrl),
        { host_id: 2, hostnames: ['shop.example.org'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] },
      ],
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) },
        { id: 'shop', host_id: 2, account_id: 'acme' },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', `edge-${mode}`), clock);
    edge = running.urls.edge!;
    daemon = new DaemonClient(running.urls.daemon!);
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
  });

  it('renders a miss once, then serves the stored status, headers and body as a hit', async () => {
    origin.pages.set('/gone', { status: 404, headers: { 'x-robots-tag': 'noindex', 'set-cookie': 's=1' }, body: '<html><title>Gone</title>not here</html>' });
    const first = await get(edge, `/${page('/gone')}`, bot());
    expect(first.status).toBe(404);
    expect(first.headers['x-prerender-cache']).toBe('bypass');
    const second = await get(edge, `/${page('/gone')}`, bot());
    expect(second.status).toBe(404);
    expect(second.headers['x-robots-tag']).toBe('noindex');
    expect(second.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(second.headers['set-cookie']).toBeUndefined();
    expect(second.headers['x-prerender-cache']).toBe('hit');
    expect(second.body.toString()).toBe('<html><title>Gone</title>not here</html>');
    expect(second.headers['content-length']).toBe(String(second.body.length));
    const head = await get(edge, `/${page('/gone')}`, bot(), 'HEAD');
    expect([head.status, head.headers['x-prerender-cache'], head.headers['content-length'], head.body.length]).toEqual([404, 'hit', String(second.body.length), 0]);
    expect((await get(edge, `/${page('/gone')}`, bot(), 'POST')).status).toBe(404);
    expect(origin.hitsOf('/gone')).toBe(1);
  });

  it('answers 503 for an entry whose stored header Node refuses to send, and keeps serving', async () => {
    const now = Date.now();
    const entry = { hostId: 1, url: page('/bad-header'), dimensionId: 1, kind: 'render' as const, statusCode: 200, headers: { 'content-type': 'text/html', link: '</a>\n</b>' }, createdAt: now, expiresAt: now + 3_600_000, durationMs: 1 };
    await running.runtime.ports.cacheStore!.put(entry, Buffer.from('<html><title>bad</title></html>'));
    const bad = await get(edge, `/${page('/bad-header')}`, bot());
    expect([bad.status, JSON.parse(bad.body.toString()).code]).toEqual([503, 'UNAVAILABLE']);
    expect((await get(edge, `/${page('/after-bad-header')}`, bot())).status).toBe(200);
  });

  it('gzips when Accept-Encoding asks, and picks the dimension from the User-Agent', async () => {
    const plain = await get(edge, `/${page('/zip?x=1')}`, bot(GPTBOT_MOBILE));
    const zipped = await get(edge, `/${page('/zip?x=1')}`, bot(GPTBOT_MOBILE, { 'accept-encoding': 'br, gzip;q=0.8' }));
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(origin.hitsOf('/zip?x=1')).toBe(1);
    expect(await running.runtime.ports.cacheStore!.get(1, page('/zip?x=1'), 2)).toBeDefined();
    expect(await running.runtime.ports.cacheStore!.get(1, page('/zip?x=1'), 1)).toBeUndefined();
  });

  it('renders once for 100 concurrent misses of one URL and dimension', async () => {
    origin.pages.set('/popular', { delayMs: 300 });
    const answers = await Promise.all(Array.from({ length: 100 }, () => get(edge, `/${page('/popular')}`, bot())));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect(new Set(answers.map((a) => a.body.toString())).size).toBe(1);
    expect(origin.hitsOf('/popular')).toBe(1);
  });

  it('answers 504 when the render does not finish in time', async () => {
    const slow = gate();
    origin.pages.set('/slow', { heldUntil: slow.opened });
    // The origin holds its answer until the test has the edge's: a 504 then is the edge's own timeout.
    const answer = await get(edge, `/${page('/slow')}`, bot());
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.body.toString()).code).toBe('RENDER_TIMEOUT');
    slow.open();
    // The render goes on and is cached: the next bot gets the page without another origin fetch.
    await until(async () => (await running.runtime.ports.cacheStore!.get(1, page('/slow'), 1)) !== undefined, { timeoutMs: 10_000 });
    const next = await get(edge, `/${page('/slow')}`, bot());
    expect([next.status, next.headers['x-prerender-cache'], origin.hitsOf('/slow')]).toEqual([200, 'hit', 1]);
  });

  it('makes the next request render after an invalidate', async () => {
    await get(edge, `/${page('/inv')}`, bot());
    expect((await get(edge, `/${page('/inv')}`, bot())).headers['x-prerender-cache']).toBe('hit');
    const invalidated = await daemon.post('/internal/cache/invalidate', { host_id: 1, urls: [page('/inv')] });
    expect(invalidated.status).toBe(200);
    const after = await get(edge, `/${page('/inv')}`, bot());
    expect(after.headers['x-prerender-cache']).toBe('bypass');
    expect(after.body.toString()).toContain('v2');
    expect(origin.hitsOf('/inv')).toBe(2);
  });

  it('refuses bad requests with clear statuses, never a 500', async () => {
    expect((await get(edge, `/${page('/x')}`, { 'user-agent': GOOGLEBOT })).status).toBe(401);
    expect((await get(edge, `/${page('/x')}`, bot(GOOGLEBOT, { 'x-prerender-token': 'wrong' }))).status).toBe(401);
    const foreign = await get(edge, '/https://shop.example.org/x', bot());
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.body.toString()).code).toBe('NOT_FOUND');
    expect((await get(edge, '/https://evil.example.net/x', bot())).status).toBe(404);
    for (const target of ['/', '/not-a-url', '/ftp://www.example.com/x', '/https://', '/https://[bad/x']) {
      const answer = await get(edge, target, bot());
      expect([target, answer.status]).toEqual([target, 400]);
      expect(JSON.parse(answer.body.toString()).code).toBe('INVALID_URL');
    }
    expect((await get(edge, `/${page('/x')}`, bot(GOOGLEBOT, { 'x-filler': 'a'.repeat(20_000) }))).status).toBe(431);
    expect(origin.hitsOf('/x')).toBe(0);
    expect((await get(edge, '/health/live', {})).status).toBe(200);
  });

  it('records every served request in the events explorer, with bot names', async () => {
    await get(edge, `/${page('/rec')}`, bot());
    await get(edge, `/${page('/rec')}`, bot('Mozilla/5.0 (compatible; bingbot/2.0)'));
    const curl = await get(edge, `/${page('/rec')}`, bot('curl/8.0'));
    await get(edge, `/${page('/rec')}`, bot('Mozilla/5.0 (compatible; YandexBot/3.0)'), 'HEAD');
    const store = running.runtime.ports.explorerStore!;
    type Row = { bot_name: string; cache_status: string; status_code: number; page_title: string; dimension_name: string; snapshot_age_s: number | null; bytes: number };
    let rows: Row[] = [];
    await until(async () => {
      rows = await store.query<Row>(
        "SELECT bot_name, cache_status, status_code, page_title, dimension_name, snapshot_age_s, bytes FROM bot_requests FINAL WHERE website = 'demo' AND url = {u:String} ORDER BY ts",
        { u: page('/rec') },
      );
      return rows.length === 4;
    });
    // The test clock stands still, so every row has the same ts: sort on the bot name.
    rows.sort((a, b) => a.bot_name.localeCompare(b.bot_name));
    expect(rows.map((r) => [r.bot_name, r.cache_status, Number(r.status_code), r.dimension_name])).toEqual([
      ['Bingbot', 'hit', 200, 'desktop'],
      ['curl', 'hit', 200, 'desktop'],
      ['Googlebot', 'bypass', 200, 'desktop'],
      ['YandexBot', 'hit', 200, 'desktop'],
    ]);
    expect(rows.map((r) => r.page_title)).toEqual(Array(4).fill('Page /rec v1'));
    // A HEAD answer sends no body: 0 bytes.
    expect(rows.map((r) => Number(r.bytes))).toEqual([curl.body.length, curl.body.length, expect.any(Number), 0]);
    expect(curl.headers.vary).toBe('Accept, Accept-Encoding, User-Agent');
    // A miss has no snapshot; a hit's is 0 s old, as the test clock stands still (read as it is stored: null stays null).
    expect(rows.map((r) => r.snapshot_age_s)).toEqual([0, 0, null, 0]);
    const timedOut = await store.query<{ n: number }>("SELECT count() AS n FROM bot_requests FINAL WHERE website = 'demo' AND status_code = 504", {});
    expect(Number(timedOut[0].n)).toBeGreaterThanOrEqual(1);
  });

  it('schedules one autorecache entry per served entry, due at its expiry, also while the host is paused', async () => {
    expect((await daemon.post('/internal/cache/recache/pause', { host_id: 1 })).status).toBe(200);
    const before = (await daemon.queues()).autorecache.total as number;
    for (let i = 0; i < 5; i += 1) expect((await get(edge, `/${page('/auto')}`, bot())).status).toBe(200);
    // A page served after them is scheduled after them (one host, one queue partition, projected in order): once it is queued, so is anything they scheduled.
    for (let i = 0; i < 2; i += 1) expect((await get(edge, `/${page('/auto-after')}`, bot())).status).toBe(200);
    await until(async () => (await daemon.queues()).autorecache.total === before + 2);
    const queues = await daemon.queues();
    expect(queues.autorecache.total).toBe(before + 2);
    expect(queues.autorecache.due_now).toBe(0);
    expect(origin.hitsOf('/auto')).toBe(1);
    expect((await daemon.post('/internal/cache/recache/resume', { host_id: 1 })).status).toBe(200);
  });

  it('serves the old page while a daemon recache renders, and the new one once it completed', async () => {
    await get(edge, `/${page('/news')}`, bot());
    const recache = gate();
    origin.pages.set('/news', { heldUntil: recache.opened });
    expect((await daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/news')], dimension_ids: [1], priority: 'high' })).status).toBe(200);
    await until(() => origin.hitsOf('/news') === 2);
    const during = await get(edge, `/${page('/news')}`, bot());
    expect(during.headers['x-prerender-cache']).toBe('hit');
    expect(during.body.toString()).toContain('v1');
    recache.open();
    await until(async () => (await get(edge, `/${page('/news')}`, bot())).body.toString().includes('v2'));
  });

  it('keeps serving bots while a daemon pause holds the host\'s recache', async () => {
    await get(edge, `/${page('/held')}`, bot());
    expect((await daemon.post('/internal/cache/recache/pause', { host_id: 1 })).status).toBe(200);
    expect((await daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/held')], dimension_ids: [1], priority: 'high' })).status).toBe(200);
    expect((await daemon.statusAfterTick(clock)).internal_queue.size).toBe(0);
    const served = await get(edge, `/${page('/held')}`, bot());
    expect(served.status).toBe(200);
    expect(served.headers['x-prerender-cache']).toBe('hit');
    expect(origin.hitsOf('/held')).toBe(1);
    expect((await daemon.post('/internal/cache/recache/resume', { host_id: 1 })).status).toBe(200);
    await until(() => origin.hitsOf('/held') === 2);
  });

  it('serves a stale entry at once and queues its recache, which the scheduler runs (runs last: moves the clock)', async () => {
    await get(edge, `/${page('/old')}`, bot());
    const recache = gate();
    origin.pages.set('/old', { heldUntil: recache.opened });
    clock.advance(2 * 86_400_000);
    // The origin holds every new render of the page until the test has the edge's answer: that answer did not wait for one.
    const stale = await get(edge, `/${page('/old')}`, bot());
    expect(stale.headers['x-prerender-cache']).toBe('stale');
    expect(stale.body.toString()).toContain('v1');
    // At least one recache: two days past its expiry the stale hit also schedules one of its own, which the queue cannot fold into the one the scheduler may already have claimed (only the jump of the clock makes that happen).
    await until(() => origin.hitsOf('/old') >= 2);
    recache.open();
    // Two recaches render v2 and v3 in either order of completion: any version past v1 is the new page.
    await until(async () => versionServed((await get(edge, `/${page('/old')}`, bot())).body) >= 2);
  });
});
