import type { CommandBus } from '@nestjs/cqrs';
import { AppError, HostCatalog, MAX_RECACHE_URLS } from '@bpc/domain';
import type { SitemapReadResult } from '@bpc/sitemaps';
import type { RequestRecache } from '../request-recache/request-recache.command';
import { RecacheSitemap } from './recache-sitemap.command';
import { RecacheSitemapHandler } from './recache-sitemap.handler';
import type { SitemapReaderProvider } from './sitemap-reader.provider';

/** A sitemap of more URLs than one chunk takes, whose second chunk cannot be recorded. */
describe('a sitemap recache whose later chunk fails', () => {
  const urls = Array.from({ length: MAX_RECACHE_URLS + 5 }, (_, i) => `https://www.example.com/p${i}`);
  const read: SitemapReadResult = { sitemapsRead: 1, urlsFound: urls.length, urls, skipped: { offHost: 0, invalid: 0, overCap: 0, notModified: 0, duplicate: 0 } };
  const hosts = new HostCatalog([{ host_id: 1, hostnames: ['www.example.com'], cache_ttl: 60, dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'render' }], url_rules: [] }]);
  const reader = { reader: { read: async () => read } } as unknown as SitemapReaderProvider;
  const clock = { now: () => Date.UTC(2026, 10, 28) };

  function handlerFailingAt(chunk: number): { handler: RecacheSitemapHandler; recorded: RequestRecache[] } {
    const recorded: RequestRecache[] = [];
    const commands = {
      execute: async (command: RequestRecache) => {
        if (recorded.length + 1 === chunk) throw new AppError('LOG_UNAVAILABLE', 'event log unavailable, the request was not acknowledged (most likely not recorded)');
        recorded.push(command);
        return { entriesEnqueued: command.input.urls.length };
      },
    } as unknown as CommandBus;
    return { handler: new RecacheSitemapHandler(commands, hosts, reader, clock), recorded };
  }

  it('says what was queued under which receipt, with the failure’s code, instead of "nothing was changed"', async () => {
    const { handler, recorded } = handlerFailingAt(2);
    const failure = await handler.execute(new RecacheSitemap(1, 'https://www.example.com/sitemap.xml', 'normal')).catch((error: unknown) => error);
    expect(recorded).toHaveLength(1);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'LOG_UNAVAILABLE', details: { receiptId: recorded[0].receiptId, urlsQueued: MAX_RECACHE_URLS } });
    expect((failure as Error).message).toMatch(new RegExp(`^${MAX_RECACHE_URLS} of the sitemap's ${urls.length} URLs were queued under receipt ${recorded[0].receiptId}.*send the same sitemap again`));
  });

  it('passes a first chunk’s failure on as it is: nothing was queued', async () => {
    const { handler } = handlerFailingAt(1);
    const failure = await handler.execute(new RecacheSitemap(1, 'https://www.example.com/sitemap.xml', 'normal')).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'LOG_UNAVAILABLE', message: 'event log unavailable, the request was not acknowledged (most likely not recorded)' });
  });
});
