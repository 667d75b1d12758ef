import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { AddressPolicy } from '@bpc/egress';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { RobotsTxtReader } from './robots-txt-reader';

/** The process's robots.txt reader for insights, under the renderer's address rules (`render_service.egress_denied_ranges`); its connections close with the app. */
@Injectable()
export class RobotsTxtReaderProvider implements OnModuleDestroy {
  readonly reader: RobotsTxtReader;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(CLOCK) clock: Clock) {
    this.reader = new RobotsTxtReader({ addresses: new AddressPolicy({ deniedRanges: config.render_service.egress_denied_ranges }), clock });
  }

  async onModuleDestroy(): Promise<void> {
    await this.reader.close();
  }
}
