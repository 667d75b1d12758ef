import { CacheInvalidatedResult, InvalidateCache } from '@bpc/cache-operations';
import { gate, HandlerBus, openStandaloneState, StandaloneState } from '@bpc/testing';
import { PatternWalks } from '../cache-entries/pattern-walks';
import { InvalidateMatchingEntries } from './invalidate-matching-entries.command';
import { InvalidateMatchingEntriesHandler } from './invalidate-matching-entries.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const page = (p: string, host = 'www.example.com') => `https://${host}/${p}`;

/** InvalidateCache (its own spec covers it) answers here that every entry it was told of existed in both dimensions. */
const invalidateCache = async ({ input }: InvalidateCache): Promise<CacheInvalidatedResult> => ({ hostId: input.hostId, urlsCount: input.urls.length, dimensionIdsCount: 2, entriesInvalidated: input.urls.length * 2 });

describe('InvalidateMatchingEntries', () => {
  let state: StandaloneState;
  let bus: HandlerBus;
  let walks: PatternWalks;
  let handler: InvalidateMatchingEntriesHandler;

  beforeEach(async () => {
    // demo is on host 1, whose only hostname is www.example.com.
    state = await openStandaloneState();
    bus = new HandlerBus().on(InvalidateCache, { execute: invalidateCache });
    walks = new PatternWalks();
    handler = new InvalidateMatchingEntriesHandler(bus.asCommandBus(), state.hosts, state.cache, state.config, walks);
    // Given host 1's cache: blog/a in both dimensions, blog/b and shop/x in one, and blog/z left on a hostname the host no longer has.
    const entries = [[page('blog/a'), 1], [page('blog/a'), 2], [page('blog/b'), 1], [page('shop/x'), 1], [page('blog/z', 'old.example.com'), 1]] as const;
    for (const [url, dimensionId] of entries) {
      await state.cache.put({ hostId: 1, url, dimensionId, kind: 'render', statusCode: 200, headers: {}, durationMs: 10, createdAt: T, expiresAt: T + 3_600_000 }, Buffer.from('<html></html>'));
    }
  });

  afterEach(() => state.close());

  const run = (body: InvalidateMatchingEntries['body']) => handler.execute(new InvalidateMatchingEntries('demo', body));

  it('on a dry run, counts the entries and URLs a prefix selects and changes nothing', async () => {
    expect(await run({ prefix: page('blog/'), dryRun: true })).toEqual({ dryRun: true, entriesMatched: 3, urlsMatched: 2, entriesInvalidated: 0 });
    expect(bus.sent).toEqual([]);
  });

  it("drops the selected URLs through InvalidateCache (every dimension, source public-api) and answers what it dropped", async () => {
    expect(await run({ prefix: 'HTTPS://WWW.EXAMPLE.COM/blog/' })).toEqual({ dryRun: false, entriesMatched: 3, urlsMatched: 2, entriesInvalidated: 4 });
    expect(bus.sent).toEqual([new InvalidateCache({ hostId: 1, urls: [page('blog/a'), page('blog/b')] }, 'public-api')]);
  });

  it("counts entries left on a hostname the host no longer has, but never names them to InvalidateCache (it would refuse their URLs)", async () => {
    expect(await run({ pattern: '/blog/' })).toEqual({ dryRun: false, entriesMatched: 4, urlsMatched: 3, entriesInvalidated: 4 });
    expect(bus.sentOf(InvalidateCache)[0].input.urls).toEqual([page('blog/a'), page('blog/b')]);
  });

  it('sends nothing when every match is off the host’s hostnames, or nothing matches', async () => {
    expect(await run({ pattern: 'old\\.example\\.com' })).toEqual({ dryRun: false, entriesMatched: 1, urlsMatched: 1, entriesInvalidated: 0 });
    expect(await run({ prefix: page('none/') })).toEqual({ dryRun: false, entriesMatched: 0, urlsMatched: 0, entriesInvalidated: 0 });
    expect(bus.sent).toEqual([]);
  });

  it.each([
    ['neither prefix nor pattern', {}, 'prefix'],
    ['both prefix and pattern', { prefix: page('blog/'), pattern: 'blog' }, 'pattern'],
    ['a prefix that is not an absolute URL', { prefix: '/blog/' }, 'prefix'],
    ["a prefix on another website's hostname", { prefix: page('', 'shop.example.org') }, 'prefix'],
    ['an empty pattern', { pattern: '' }, 'pattern'],
    ['a pattern RE2 cannot take', { pattern: '(blog' }, 'pattern'],
  ])('refuses %s with VALIDATION_FAILED naming the field; nothing is dropped', async (_what, body, field) => {
    await expect(run(body)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(bus.sent).toEqual([]);
  });

  it('refuses a pattern search with EXPLORER_BUSY (retry after 1 s) while the host’s pattern walks are taken; a prefix is a range read and goes ahead', async () => {
    const held = gate();
    const busy = [1, 2].map(() => walks.run(1, { urlFilter: () => true }, () => held.opened));
    await expect(run({ pattern: 'blog' })).rejects.toMatchObject({ code: 'EXPLORER_BUSY', retryAfterS: 1 });
    expect(await run({ prefix: page('blog/'), dryRun: true })).toMatchObject({ entriesMatched: 3 });
    held.open();
    await Promise.all(busy);
    expect(await run({ pattern: 'blog', dryRun: true })).toMatchObject({ entriesMatched: 4 });
  });

  it('answers STORE_UNAVAILABLE, saying nothing was changed, when the cache store cannot be read', async () => {
    await state.cache.close();
    await expect(run({ prefix: page('blog/') })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'cache store unavailable, nothing was changed' });
    expect(bus.sent).toEqual([]);
  });
});
