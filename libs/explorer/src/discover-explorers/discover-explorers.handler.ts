import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DEFAULT_LIMITS } from '../catalog/explorer-catalog';
import { DiscoverExplorers } from './discover-explorers.query';
import { discoveryDocument, DiscoveryDocument } from './discovery';

@QueryHandler(DiscoverExplorers)
export class DiscoverExplorersHandler implements IQueryHandler<DiscoverExplorers, DiscoveryDocument> {
  async execute(): Promise<DiscoveryDocument> {
    return discoveryDocument(DEFAULT_LIMITS);
  }
}
