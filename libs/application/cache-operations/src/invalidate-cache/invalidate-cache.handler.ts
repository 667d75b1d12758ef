import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CACHE_STORE, CacheStore } from '@bpc/cache-store';
import { Clock, decideInvalidate, HostCatalog } from '@bpc/domain';
import { CACHE_INVALIDATED, newQueueEvent, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { recordAndProject } from '../projection/record-and-project';
import { CacheInvalidatedResult, InvalidateCache } from './invalidate-cache.command';

/** Records CacheInvalidated and answers how many entries the cache projection dropped. */
@CommandHandler(InvalidateCache)
export class InvalidateCacheHandler implements ICommandHandler<InvalidateCache, CacheInvalidatedResult> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CACHE_STORE) private readonly cache: CacheStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, source }: InvalidateCache): Promise<CacheInvalidatedResult> {
    const decision = decideInvalidate(input, this.hosts);
    const event = newQueueEvent(CACHE_INVALIDATED, { ...decision, source }, String(decision.hostId), this.clock.now());
    const dropped = await recordAndProject<number>(this.log, this.cache, TOPICS.queue, event);
    return {
      hostId: decision.hostId,
      urlsCount: input.urls.length,
      dimensionIdsCount: decision.dimensionIds.length,
      entriesInvalidated: dropped,
    };
  }
}
