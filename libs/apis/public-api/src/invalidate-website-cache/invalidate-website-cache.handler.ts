import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CacheInvalidatedResult, InvalidateCache } from '@bpc/cache-operations';
import type { AppConfig } from '@bpc/config';
import { HostCatalog } from '@bpc/domain';
import { APP_CONFIG } from '@bpc/platform';
import { PUBLIC_URL_LIMITS, websiteUrls } from '../cache-operations/website-urls';
import { InvalidateWebsiteCache, WebsiteCacheInvalidated } from './invalidate-website-cache.command';

/** Applies the public limits, then goes through the cache operations' InvalidateCache (source `public-api`). */
@CommandHandler(InvalidateWebsiteCache)
export class InvalidateWebsiteCacheHandler implements ICommandHandler<InvalidateWebsiteCache, WebsiteCacheInvalidated> {
  constructor(
    private readonly commands: CommandBus,
    private readonly hosts: HostCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, urls }: InvalidateWebsiteCache): Promise<WebsiteCacheInvalidated> {
    const target = websiteUrls(this.config, this.hosts, websiteId, urls, PUBLIC_URL_LIMITS.invalidate);
    const result = await this.commands.execute<InvalidateCache, CacheInvalidatedResult>(new InvalidateCache({ hostId: target.hostId, urls: target.urls }, 'public-api'));
    return { entriesInvalidated: result.entriesInvalidated, urlsAccepted: target.urls.length };
  }
}
