import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { RecacheSitemap, SitemapRecacheAccepted } from '@bpc/daemon';
import { APP_CONFIG } from '@bpc/platform';
import { parseLastmodAfter } from './parse-lastmod-after';
import { RecacheWebsiteSitemap } from './recache-website-sitemap.command';

/** The website's host, then the daemon's RecacheSitemap (which records through RequestRecache, `source: 'sitemap'`). */
@CommandHandler(RecacheWebsiteSitemap)
export class RecacheWebsiteSitemapHandler implements ICommandHandler<RecacheWebsiteSitemap, SitemapRecacheAccepted> {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, sitemapUrl, priority, lastmodAfter }: RecacheWebsiteSitemap): Promise<SitemapRecacheAccepted> {
    const website = this.config.websites.find((w) => w.id === websiteId);
    // The guard has already refused unknown websites; this is a configuration bug.
    if (!website) throw new Error(`website ${websiteId} is not configured`);
    const after = lastmodAfter === undefined ? undefined : parseLastmodAfter(lastmodAfter);
    return this.commands.execute(new RecacheSitemap(website.host_id, sitemapUrl, priority, after));
  }
}
