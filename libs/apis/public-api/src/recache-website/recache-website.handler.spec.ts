import { rmSync } from 'node:fs';
import { RecacheAccepted, RequestRecache } from '@bpc/cache-operations';
import { HostCatalog } from '@bpc/domain';
import { HandlerBus, testConfig } from '@bpc/testing';
import { RecacheWebsite } from './recache-website.command';
import { RecacheWebsiteHandler } from './recache-website.handler';

const page = (p: string, host = 'www.example.com') => `https://${host}/${p}`;
const pages = (n: number) => Array.from({ length: n }, (_, i) => page(`p${i}`));

/** RequestRecache (its own spec covers it) answers here as it would for two dimensions, under one receipt. */
const requestRecache = async ({ input }: RequestRecache): Promise<RecacheAccepted> => ({
  hostId: input.hostId,
  urlsCount: input.urls.length,
  dimensionIdsCount: 2,
  entriesEnqueued: input.urls.length * 2,
  priority: input.priority,
  paused: false,
  receiptId: '0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12',
});

describe('RecacheWebsite', () => {
  // demo is on host 1 (www.example.com), shop on host 2 (shop.example.org).
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'acme' }] });
  let bus: HandlerBus;
  let handler: RecacheWebsiteHandler;

  beforeEach(() => {
    bus = new HandlerBus().on(RequestRecache, { execute: requestRecache });
    handler = new RecacheWebsiteHandler(bus.asCommandBus(), new HostCatalog(config.hosts), config);
  });

  afterAll(() => rmSync(config.data_dir, { recursive: true, force: true }));

  it("queues through RequestRecache on the website's host (source public-api), with the URLs normalised and de-duplicated", async () => {
    const answer = await handler.execute(new RecacheWebsite('demo', [page('a'), 'HTTPS://WWW.EXAMPLE.COM/a', page('b')], 'high'));

    expect(bus.sent).toEqual([new RequestRecache({ hostId: 1, urls: [page('a'), page('b')], priority: 'high' }, 'public-api')]);
    expect(answer).toEqual({ entriesEnqueued: 4, urlsAccepted: 2, receiptId: '0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12' });
  });

  it("takes the host of the website named, not another's", async () => {
    await handler.execute(new RecacheWebsite('shop', [page('a', 'shop.example.org')], 'normal'));
    expect(bus.sentOf(RequestRecache)[0].input).toMatchObject({ hostId: 2, priority: 'normal' });
  });

  it.each([
    ['high', 100],
    ['normal', 1_000],
  ] as const)('takes up to the public limit at %s priority (%i URLs), counted as sent (duplicates included); one more is VALIDATION_FAILED naming urls', async (priority, limit) => {
    await handler.execute(new RecacheWebsite('demo', pages(limit), priority));
    const over = [...pages(limit), page('p0')];
    await expect(handler.execute(new RecacheWebsite('demo', over, priority))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'urls',
      message: `urls must hold 1 to ${limit} entries when priority is "${priority}", got ${limit + 1}`,
    });
    expect(bus.sent).toHaveLength(1);
  });

  it.each([
    ['no URL', [], 'urls'],
    ["a URL of another website's host", [page('a'), page('a', 'shop.example.org')], 'urls[1]'],
    ['a URL that is not absolute', ['/a'], 'urls[0]'],
  ])('refuses %s with VALIDATION_FAILED naming the field; nothing is queued', async (_what, urls, field) => {
    await expect(handler.execute(new RecacheWebsite('demo', urls, 'normal'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(bus.sent).toEqual([]);
  });
});
