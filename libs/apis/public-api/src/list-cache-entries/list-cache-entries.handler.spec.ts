import { openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { PatternWalks } from '../cache-entries/pattern-walks';
import { ListCacheEntries } from './list-cache-entries.query';
import { ListCacheEntriesHandler } from './list-cache-entries.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const HOUR = 3_600_000;
const page = (p: string) => `https://www.example.com/${p}`;

describe('ListCacheEntries', () => {
  let state: StandaloneState;
  let clock: TestClock;
  let handler: ListCacheEntriesHandler;

  beforeEach(async () => {
    // demo is on host 1: dimensions 1 (desktop) and 2 (mobile).
    state = await openStandaloneState();
    clock = new TestClock(T);
    handler = new ListCacheEntriesHandler(state.hosts, state.cache, state.config, clock, new PatternWalks());
    // Given blog/a rendered in both dimensions (mobile expired an hour ago), blog/b fetched from the origin, and
    // blog/c cached in a dimension 3 that is no longer configured.
    const put = (url: string, dimensionId: number, over: { kind?: 'render' | 'bypass'; expiresAt?: number; statusCode?: number } = {}) =>
      state.cache.put(
        { hostId: 1, url, dimensionId, kind: over.kind ?? 'render', statusCode: over.statusCode ?? 200, headers: over.statusCode === 301 ? { location: page('new') } : {}, durationMs: 1234.6, createdAt: T - 2 * HOUR, expiresAt: over.expiresAt ?? T + HOUR },
        Buffer.from('<html>page</html>'),
      );
    await put(page('blog/a'), 1);
    await put(page('blog/a'), 2, { expiresAt: T - HOUR });
    await put(page('blog/b'), 1, { kind: 'bypass', statusCode: 301 });
    await put(page('blog/c'), 3);
    await put(page('shop/x'), 1);
  });

  afterEach(() => state.close());

  const list = (body: ListCacheEntries['body']) => handler.execute(new ListCacheEntries('demo', body));

  it('lists the entries under a prefix by URL then dimension, with each entry’s facts as of now, 50 a page by default', async () => {
    const listing = await list({ prefix: page('blog/') });

    expect(listing.meta).toEqual({ page: 1, perPage: 50, total: 4, totalPages: 1 });
    expect(listing.data.map((e) => [e.url, e.dimensionId, e.dimension, e.kind, e.status, e.statusCode])).toEqual([
      [page('blog/a'), 1, 'desktop', 'render', 'fresh', 200],
      [page('blog/a'), 2, 'mobile', 'render', 'stale', 200],
      [page('blog/b'), 1, 'desktop', 'bypass', 'fresh', 301],
      // A dimension no longer configured has no name.
      [page('blog/c'), 3, null, 'render', 'fresh', 200],
    ]);
    expect(listing.data[0]).toEqual({
      url: page('blog/a'),
      dimensionId: 1,
      dimension: 'desktop',
      kind: 'render',
      status: 'fresh',
      statusCode: 200,
      renderedAt: new Date(T - 2 * HOUR).toISOString(),
      expiresAt: new Date(T + HOUR).toISOString(),
      bytes: 17,
      renderMs: 1235,
    });
  });

  it('tells fresh from stale by the clock', async () => {
    clock.advance(HOUR);
    expect((await list({ prefix: page('blog/a') })).data.map((e) => e.status)).toEqual(['stale', 'stale']);
  });

  it('pages: the page asked for, and how many pages there are', async () => {
    const second = await list({ prefix: page('blog/'), page: 2, perPage: 3 });
    expect(second.meta).toEqual({ page: 2, perPage: 3, total: 4, totalPages: 2 });
    expect(second.data.map((e) => e.url)).toEqual([page('blog/c')]);
    expect((await list({ prefix: page('blog/'), page: 3, perPage: 3 })).data).toEqual([]);
  });

  it('selects by an RE2 pattern searched in the whole URL', async () => {
    const listing = await list({ pattern: '/(shop|blog/b)' });
    expect(listing.data.map((e) => e.url)).toEqual([page('blog/b'), page('shop/x')]);
    expect(listing.meta.total).toBe(2);
  });

  it('refuses a selection the explorer would refuse with VALIDATION_FAILED naming the field', async () => {
    await expect(list({})).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'prefix' });
    await expect(list({ prefix: 'https://shop.example.org/' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'prefix' });
    await expect(list({ pattern: '(' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'pattern' });
  });

  it('answers STORE_UNAVAILABLE when the cache store cannot be read', async () => {
    await state.cache.close();
    await expect(list({ prefix: page('blog/') })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'cache store unavailable' });
  });
});
