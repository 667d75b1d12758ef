import { rmSync } from 'node:fs';
import { RecacheSitemap, SitemapRecacheAccepted } from '@bpc/cache-operations';
import { HandlerBus, testConfig } from '@bpc/testing';
import { RecacheWebsiteSitemap } from './recache-website-sitemap.command';
import { RecacheWebsiteSitemapHandler } from './recache-website-sitemap.handler';

const accepted: SitemapRecacheAccepted = {
  receiptId: '0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12',
  sitemapsRead: 1,
  urlsFound: 3,
  urlsAccepted: 2,
  entriesEnqueued: 4,
  skipped: { offHost: 1, invalid: 0, overCap: 0, notModified: 0, duplicate: 0 },
};

describe('RecacheWebsiteSitemap', () => {
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'acme' }] });
  let bus: HandlerBus;
  let handler: RecacheWebsiteSitemapHandler;

  beforeEach(() => {
    // RecacheSitemap (its own spec covers it) answers as it would.
    bus = new HandlerBus().on(RecacheSitemap, { execute: async () => accepted });
    handler = new RecacheWebsiteSitemapHandler(bus.asCommandBus(), config);
  });

  afterAll(() => rmSync(config.data_dir, { recursive: true, force: true }));

  it("hands the sitemap to RecacheSitemap on the website's host, and answers what it answered", async () => {
    expect(await handler.execute(new RecacheWebsiteSitemap('shop', 'https://shop.example.org/sitemap.xml', 'high'))).toEqual(accepted);
    expect(bus.sent).toEqual([new RecacheSitemap(2, 'https://shop.example.org/sitemap.xml', 'high', undefined)]);
  });

  it.each([
    ['2026-11-01', Date.parse('2026-11-01T00:00:00Z')],
    ['2026-11-01T10:30:00+02:00', Date.parse('2026-11-01T08:30:00Z')],
  ])('reads lastmodAfter %s as that instant (a date is midnight UTC)', async (lastmodAfter, ms) => {
    await handler.execute(new RecacheWebsiteSitemap('demo', 'https://www.example.com/sitemap.xml', 'normal', lastmodAfter));
    expect(bus.sentOf(RecacheSitemap)[0]).toEqual(new RecacheSitemap(1, 'https://www.example.com/sitemap.xml', 'normal', ms));
  });

  it.each(['2026-02-30', '2026-11-01T10:30', 'yesterday'])('refuses lastmodAfter %s with VALIDATION_FAILED naming it; nothing is read or queued', async (lastmodAfter) => {
    await expect(handler.execute(new RecacheWebsiteSitemap('demo', 'https://www.example.com/sitemap.xml', 'normal', lastmodAfter))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'lastmodAfter' });
    expect(bus.sent).toEqual([]);
  });

  // A caller chaining `.catch` on the bus's promise sees the refusal.
  it('answers a refusal as a rejected promise, not a synchronous throw', () => {
    expect(() => handler.execute(new RecacheWebsiteSitemap('demo', 'https://www.example.com/sitemap.xml', 'normal', 'yesterday')).catch(() => undefined)).not.toThrow();
  });
});
