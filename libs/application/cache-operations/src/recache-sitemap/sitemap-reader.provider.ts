import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG } from '@bpc/platform';
import { AddressPolicy } from '@bpc/egress';
import { SitemapReader } from '@bpc/sitemaps';

/** The process's sitemap reader, under the renderer's address rules (`render_service.egress_denied_ranges`); its connections close with the app. */
@Injectable()
export class SitemapReaderProvider implements OnModuleDestroy {
  readonly reader: SitemapReader;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.reader = new SitemapReader({ addresses: new AddressPolicy({ deniedRanges: config.render_service.egress_denied_ranges }) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.reader.close();
  }
}
