import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drainPending } from 'chdb';
import { BOT_REQUEST_RECORDED, type BotRequestRecordedPayload, envelope } from '@bpc/events';
import { BOT_REQUEST_EVENTS_TABLE, ChdbExecutor, EXPLORER_DDL_DIR, ExplorerAdmission } from '@bpc/explorer-store';
import { botRequestPayload, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { LookUpCacheEntry } from './look-up-cache-entry.query';
import { LookUpCacheEntryHandler } from './look-up-cache-entry.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const MINUTE = 60_000;
const PRICING = 'https://www.example.com/pricing';

/**
 * One URL's cache entries (file cache store) and the bot requests served
 * from them, counted in real explorer tables (chDB) through the admission
 * queue, as the handler runs in the public API.
 */
describe('LookUpCacheEntry (file cache store, chDB)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-lookup-'));
  const clock = new TestClock(T);
  let explorer: ChdbExecutor;
  let state: StandaloneState;
  let handler: LookUpCacheEntryHandler;
  let served = 0;

  /** A bot request of website `websiteId` for `url`, served at `at` from the cache as `cacheStatus`, in a dimension. */
  function servedRequest(at: number, dimensionId: number, cacheStatus: BotRequestRecordedPayload['cacheStatus'], url = PRICING, websiteId = 'demo') {
    served += 1;
    const payload = { ...botRequestPayload(served), websiteId, url, dimensionId, cacheStatus, servedAt: new Date(at).toISOString(), requestId: `req-${served}` };
    return envelope(BOT_REQUEST_RECORDED, 1, payload, { id: `ev-${served}`, occurredAt: new Date(at), key: websiteId });
  }

  beforeAll(async () => {
    explorer = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await explorer.migrate();
    const rows = [
      // Desktop (rendered an hour ago): two served from the entry since, one before it, one miss, one of another page, one of another website.
      servedRequest(T - 30 * MINUTE, 1, 'hit'),
      servedRequest(T - 10 * MINUTE, 1, 'stale'),
      servedRequest(T - 2 * 60 * MINUTE, 1, 'hit'),
      servedRequest(T - 20 * MINUTE, 1, 'miss'),
      servedRequest(T - 5 * MINUTE, 1, 'hit', 'https://www.example.com/other'),
      servedRequest(T - 5 * MINUTE, 1, 'hit', PRICING, 'shop'),
      // Mobile (rendered 8 minutes ago): one served since, one before.
      servedRequest(T - 5 * MINUTE, 2, 'hit'),
      servedRequest(T - 9 * MINUTE, 2, 'hit'),
    ].map((event) => ({ ...event }));
    await explorer.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows, token: 'lookup-requests' });
  }, 60_000);

  beforeEach(async () => {
    // demo and shop are both on host 1 (www.example.com: desktop and mobile); other is on host 2.
    state = await openStandaloneState({ websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 1, account_id: 'acme' }, { id: 'other', host_id: 2, account_id: 'acme' }] });
    handler = new LookUpCacheEntryHandler(state.hosts, state.cache, explorer, new ExplorerAdmission({ maxRunning: 2, perAccount: 4 }, clock), state.config, clock);
  });

  afterEach(() => state.close());

  afterAll(async () => {
    await explorer?.close();
    await drainPending();
    rmSync(dir, { recursive: true, force: true });
  });

  const cached = (dimensionId: number, createdAt: number) =>
    state.cache.put({ hostId: 1, url: PRICING, dimensionId, kind: 'render', statusCode: 200, headers: { 'content-type': 'text/html' }, durationMs: 812.4, createdAt, expiresAt: createdAt + 24 * 60 * MINUTE }, Buffer.from('<html>pricing</html>'));
  const lookUp = (url: unknown, websiteId = 'demo') => handler.execute(new LookUpCacheEntry(websiteId, 'acme', url, clock.now()));

  it("shows every dimension of the website's host: the cached one with its facts and the bot requests served from it since it was rendered", async () => {
    await cached(1, T - 60 * MINUTE);

    expect(await lookUp('HTTPS://WWW.EXAMPLE.COM/pricing#top')).toEqual({
      url: PRICING,
      entries: [
        {
          dimensionId: 1,
          dimension: 'desktop',
          cached: true,
          kind: 'render',
          status: 'fresh',
          statusCode: 200,
          renderedAt: new Date(T - 60 * MINUTE).toISOString(),
          expiresAt: new Date(T + 23 * 60 * MINUTE).toISOString(),
          bytes: 20,
          renderMs: 812,
          // The hit and the stale serve since the render: not the hit before it, the miss, another page's or another website's.
          hits: 2,
          lastServedAt: new Date(T - 10 * MINUTE).toISOString(),
        },
        // Not cached: requests served to mobile bots are not counted for it.
        { dimensionId: 2, dimension: 'mobile', cached: false, hits: 0, lastServedAt: null },
      ],
    });
  });

  it("counts each dimension from its own entry's render", async () => {
    await cached(1, T - 60 * MINUTE);
    await cached(2, T - 8 * MINUTE);
    const { entries } = await lookUp(PRICING);
    expect(entries.map((e) => [e.dimension, e.hits, e.lastServedAt])).toEqual([
      ['desktop', 2, new Date(T - 10 * MINUTE).toISOString()],
      ['mobile', 1, new Date(T - 5 * MINUTE).toISOString()],
    ]);
  });

  it("counts the requests of the website asked about only (another website on the same host has its own)", async () => {
    await cached(1, T - 60 * MINUTE);
    expect((await lookUp(PRICING, 'shop')).entries[0]).toMatchObject({ hits: 1, lastServedAt: new Date(T - 5 * MINUTE).toISOString() });
  });

  it('answers a page nothing is cached for with every dimension uncached', async () => {
    expect((await lookUp(PRICING)).entries).toEqual([
      { dimensionId: 1, dimension: 'desktop', cached: false, hits: 0, lastServedAt: null },
      { dimensionId: 2, dimension: 'mobile', cached: false, hits: 0, lastServedAt: null },
    ]);
  });

  it.each([
    ['no url', undefined, 'url is required: the absolute URL of a page of the website'],
    ['url given twice', [PRICING, PRICING], 'url must be given once'],
    ['a url that is not absolute', '/pricing', 'url must be an absolute http(s) URL'],
  ])('refuses %s with VALIDATION_FAILED naming url', async (_what, url, message) => {
    await expect(lookUp(url)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'url', message });
  });

  it("answers a page of another website's host as NOT_FOUND naming url, as an unknown page: other websites' hostnames are not the caller's to learn", async () => {
    await expect(lookUp('https://shop.example.org/pricing')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'url' });
  });

  it('answers STORE_UNAVAILABLE when the cache store cannot be read', async () => {
    await state.cache.close();
    await expect(lookUp(PRICING)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'cache store unavailable' });
  });
});
