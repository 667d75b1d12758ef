import { rmSync } from 'node:fs';
import { CacheInvalidatedResult, InvalidateCache } from '@bpc/cache-operations';
import { HostCatalog } from '@bpc/domain';
import { HandlerBus, testConfig } from '@bpc/testing';
import { InvalidateWebsiteCache } from './invalidate-website-cache.command';
import { InvalidateWebsiteCacheHandler } from './invalidate-website-cache.handler';

const page = (p: string, host = 'www.example.com') => `https://${host}/${p}`;
const pages = (n: number) => Array.from({ length: n }, (_, i) => page(`p${i}`));

/** InvalidateCache (its own spec covers it) answers here that one entry per URL existed. */
const invalidateCache = async ({ input }: InvalidateCache): Promise<CacheInvalidatedResult> => ({ hostId: input.hostId, urlsCount: input.urls.length, dimensionIdsCount: 2, entriesInvalidated: input.urls.length });

describe('InvalidateWebsiteCache', () => {
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'acme' }] });
  let bus: HandlerBus;
  let handler: InvalidateWebsiteCacheHandler;

  beforeEach(() => {
    bus = new HandlerBus().on(InvalidateCache, { execute: invalidateCache });
    handler = new InvalidateWebsiteCacheHandler(bus.asCommandBus(), new HostCatalog(config.hosts), config);
  });

  afterAll(() => rmSync(config.data_dir, { recursive: true, force: true }));

  it("drops the entries through InvalidateCache on the website's host, every dimension (source public-api), and answers the count dropped", async () => {
    const answer = await handler.execute(new InvalidateWebsiteCache('demo', [page('a'), 'https://www.example.com:443/a', page('b')]));

    expect(bus.sent).toEqual([new InvalidateCache({ hostId: 1, urls: [page('a'), page('b')] }, 'public-api')]);
    expect(answer).toEqual({ entriesInvalidated: 2, urlsAccepted: 2 });
  });

  it('takes up to 1,000 URLs, counted as sent; one more is VALIDATION_FAILED naming urls', async () => {
    await handler.execute(new InvalidateWebsiteCache('demo', pages(1_000)));
    await expect(handler.execute(new InvalidateWebsiteCache('demo', [...pages(1_000), page('p0')]))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'urls',
      message: 'urls must hold 1 to 1000 entries, got 1001',
    });
    expect(bus.sent).toHaveLength(1);
  });

  it.each([
    ['no URL', [], 'urls'],
    ["a URL of another website's host", [page('a', 'shop.example.org')], 'urls[0]'],
  ])('refuses %s with VALIDATION_FAILED naming the field; nothing is dropped', async (_what, urls, field) => {
    await expect(handler.execute(new InvalidateWebsiteCache('demo', urls))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(bus.sent).toEqual([]);
  });
});
