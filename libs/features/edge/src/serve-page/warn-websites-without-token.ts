import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, LOGGER } from '@bpc/platform';
import type { Logger } from 'pino';

/**
 * A website without `prerender_token_sha256` is valid configuration (it may
 * use the explorer only), but the edge then answers every one of its bots
 * 401: said once at startup, in every mode, so an operator wondering why
 * bots are refused finds the reason in the first lines of the log.
 */
@Injectable()
export class WarnWebsitesWithoutToken implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    for (const website of this.config.websites.filter((w) => !w.prerender_token_sha256)) {
      this.logger.warn(
        { website: website.id, key: 'websites[].prerender_token_sha256' },
        `website ${website.id} has no prerender token: the edge refuses all of its bot requests (401) until websites[].prerender_token_sha256 is set`,
      );
    }
  }
}
