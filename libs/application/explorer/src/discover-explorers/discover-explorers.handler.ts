import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountLimits } from '../account-limits';
import { DiscoverExplorers } from './discover-explorers.query';
import { discoveryDocument, DiscoveryDocument } from './discovery';

@QueryHandler(DiscoverExplorers)
export class DiscoverExplorersHandler implements IQueryHandler<DiscoverExplorers, DiscoveryDocument> {
  constructor(private readonly limits: AccountLimits) {}

  async execute({ accountId }: DiscoverExplorers): Promise<DiscoveryDocument> {
    return discoveryDocument(this.limits.of(accountId));
  }
}
