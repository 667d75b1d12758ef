import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG } from '@bpc/platform';
import { AccountLimits } from '../account-limits';
import { discoveryEntry, DiscoveryEntry } from '../discover-explorers/discovery';
import { rendersCatalogOf } from './renders-catalog';
import { DiscoverRenders } from './renders.query';

@QueryHandler(DiscoverRenders)
export class DiscoverRendersHandler implements IQueryHandler<DiscoverRenders, DiscoveryEntry> {
  constructor(
    private readonly limits: AccountLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId }: DiscoverRenders): Promise<DiscoveryEntry> {
    return discoveryEntry(rendersCatalogOf(this.config, websiteId), this.limits.of(accountId));
  }
}
