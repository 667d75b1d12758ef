import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecacheSitemap, SitemapRecacheAccepted } from '@bpc/cache-operations';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG } from '@bpc/platform';
import { parseLastmodAfter } from './parse-lastmod-after';
import { RecacheWebsiteSitemap, WebsiteSitemapRecacheAccepted } from './recache-website-sitemap.command';

/** The website's host, then the cache operations' RecacheSitemap (which records through RequestRecache, `source: 'sitemap'`). */
@CommandHandler(RecacheWebsiteSitemap)
export class RecacheWebsiteSitemapHandler implements ICommandHandler<RecacheWebsiteSitemap, WebsiteSitemapRecacheAccepted> {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, sitemapUrl, priority, lastmodAfter }: RecacheWebsiteSitemap): Promise<WebsiteSitemapRecacheAccepted> {
    const website = this.config.websites.find((w) => w.id === websiteId);
    // The guard has already refused unknown websites; this is a configuration bug.
    if (!website) throw new Error(`website ${websiteId} is not configured`);
    const after = lastmodAfter === undefined ? undefined : parseLastmodAfter(lastmodAfter);
    return publicAnswer(await this.commands.execute<RecacheSitemap, SitemapRecacheAccepted>(new RecacheSitemap(website.host_id, sitemapUrl, priority, after)));
  }
}

/** The public contract's fields only, so what the cache operation adds to its result is not published by accident. */
function publicAnswer({ receiptId, sitemapsRead, urlsFound, urlsAccepted, entriesEnqueued, skipped }: SitemapRecacheAccepted): WebsiteSitemapRecacheAccepted {
  const { offHost, invalid, overCap, notModified, duplicate } = skipped;
  return { receiptId, sitemapsRead, urlsFound, urlsAccepted, entriesEnqueued, skipped: { offHost, invalid, overCap, notModified, duplicate } };
}
