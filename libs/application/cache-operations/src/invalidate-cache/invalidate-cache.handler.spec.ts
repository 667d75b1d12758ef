import { CACHE_INVALIDATED, CacheInvalidated, TOPICS } from '@bpc/events';
import { openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { InvalidateCache } from './invalidate-cache.command';
import { InvalidateCacheHandler } from './invalidate-cache.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const page = (p: string) => `https://www.example.com/${p}`;

describe('InvalidateCache', () => {
  let state: StandaloneState;
  let handler: InvalidateCacheHandler;
  const clock = new TestClock(T);

  beforeEach(async () => {
    // Host 1 (testConfig): dimensions 1 and 2, `^/admin/` ignored for recache.
    state = await openStandaloneState();
    handler = new InvalidateCacheHandler(state.hosts, state.log, state.cache, clock);
    // Given pages a and admin/x cached in both dimensions, b in dimension 1 only.
    for (const [p, dimensionId] of [['a', 1], ['a', 2], ['b', 1], ['admin/x', 1], ['admin/x', 2]] as const) await cached(p, dimensionId);
  });

  afterEach(() => state.close());

  async function cached(p: string, dimensionId: number): Promise<void> {
    const entry = { hostId: 1, url: page(p), dimensionId, kind: 'render' as const, statusCode: 200, headers: { 'content-type': 'text/html' }, durationMs: 100, createdAt: T - 60_000, expiresAt: T + 3_600_000 };
    await state.cache.put(entry, Buffer.from(`<html>${p}</html>`));
  }

  const invalidations = async () => (await state.recorded(TOPICS.queue)).filter((e): e is CacheInvalidated => e.type === CACHE_INVALIDATED);
  const isCached = async (p: string, dimensionId: number) => (await state.cache.get(1, page(p), dimensionId)) !== undefined;

  it('records CacheInvalidated of the normalised URLs × every dimension and answers how many entries existed and were dropped', async () => {
    const answer = await handler.execute(new InvalidateCache({ hostId: 1, urls: [page('a'), 'https://WWW.example.com/a#x', page('b'), page('never-cached')] }, 'daemon-api'));

    expect(answer).toEqual({ hostId: 1, urlsCount: 4, dimensionIdsCount: 2, entriesInvalidated: 3 });
    const [event] = await invalidations();
    expect(event).toMatchObject({ key: '1', occurredAt: new Date(T).toISOString() });
    expect(event.payload).toEqual({ hostId: 1, urls: [page('a'), page('b'), page('never-cached')], dimensionIds: [1, 2], source: 'daemon-api' });
    expect([await isCached('a', 1), await isCached('a', 2), await isCached('b', 1)]).toEqual([false, false, false]);
    expect(await isCached('admin/x', 1)).toBe(true);
  });

  it('drops only the named dimensions', async () => {
    const answer = await handler.execute(new InvalidateCache({ hostId: 1, urls: [page('a')], dimensionIds: [2] }, 'public-api'));
    expect(answer).toMatchObject({ dimensionIdsCount: 1, entriesInvalidated: 1 });
    expect([await isCached('a', 1), await isCached('a', 2)]).toEqual([true, false]);
    expect((await invalidations())[0].payload).toMatchObject({ dimensionIds: [2], source: 'public-api' });
  });

  it('drops pages an ignore rule keeps out of the queue too: the rule is about recaching, not about what is cached', async () => {
    expect(await handler.execute(new InvalidateCache({ hostId: 1, urls: [page('admin/x')] }, 'daemon-api'))).toMatchObject({ entriesInvalidated: 2 });
  });

  it('records a repeat and answers 0: the entries are gone already', async () => {
    await handler.execute(new InvalidateCache({ hostId: 1, urls: [page('b')] }, 'daemon-api'));
    expect(await handler.execute(new InvalidateCache({ hostId: 1, urls: [page('b')] }, 'daemon-api'))).toMatchObject({ entriesInvalidated: 0 });
    expect(await invalidations()).toHaveLength(2);
  });

  it.each([
    ['an unknown host', { hostId: 9, urls: [page('a')] }, 'host_id'],
    ['a URL of another host', { hostId: 1, urls: ['https://shop.example.org/a'] }, 'urls[0]'],
    ['no URL', { hostId: 1, urls: [] }, 'urls'],
    ['more than 10,000 URLs', { hostId: 1, urls: Array.from({ length: 10_001 }, (_, i) => page(String(i))) }, 'urls'],
    ['a dimension the host does not have', { hostId: 1, urls: [page('a')], dimensionIds: [3] }, 'dimension_ids[0]'],
  ])('refuses %s with VALIDATION_FAILED naming the field; nothing is recorded or dropped', async (_what, input, field) => {
    await expect(handler.execute(new InvalidateCache(input, 'daemon-api'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(await invalidations()).toEqual([]);
    expect(await isCached('a', 1)).toBe(true);
  });

  it('refuses with STORE_UNAVAILABLE, recording nothing, when the cache store cannot be reached', async () => {
    await state.cache.close();
    await expect(handler.execute(new InvalidateCache({ hostId: 1, urls: [page('a')] }, 'daemon-api'))).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/nothing was changed/),
    });
    expect(await invalidations()).toEqual([]);
  });

  it('refuses with LOG_UNAVAILABLE when the event log refuses the append; the entries stay', async () => {
    await state.closeLog();
    await expect(handler.execute(new InvalidateCache({ hostId: 1, urls: [page('a')] }, 'daemon-api'))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE' });
    expect(await isCached('a', 1)).toBe(true);
    expect(await invalidations()).toEqual([]);
  });
});
