import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecacheAccepted, RequestRecache } from '@bpc/cache-operations';
import type { AppConfig } from '@bpc/config';
import { HostCatalog } from '@bpc/domain';
import { APP_CONFIG } from '@bpc/platform';
import { PUBLIC_URL_LIMITS, websiteUrls } from '../cache-operations/website-urls';
import { RecacheWebsite, WebsiteRecacheAccepted } from './recache-website.command';

/** Applies the public limits, then goes through the cache operations' RequestRecache (source `public-api`). */
@CommandHandler(RecacheWebsite)
export class RecacheWebsiteHandler implements ICommandHandler<RecacheWebsite, WebsiteRecacheAccepted> {
  constructor(
    private readonly commands: CommandBus,
    private readonly hosts: HostCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, urls, priority }: RecacheWebsite): Promise<WebsiteRecacheAccepted> {
    const target = websiteUrls(this.config, this.hosts, websiteId, urls, PUBLIC_URL_LIMITS[priority], ` when priority is "${priority}"`);
    const accepted = await this.commands.execute<RequestRecache, RecacheAccepted>(
      new RequestRecache({ hostId: target.hostId, urls: target.urls, priority }, 'public-api'),
    );
    return { entriesEnqueued: accepted.entriesEnqueued, urlsAccepted: target.urls.length, receiptId: accepted.receiptId };
  }
}
