import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CACHE_STORE, CacheStore } from '@bpc/cache-store';
import { TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { LOGGER, ReadinessRegistry } from '@bpc/platform';
import type { Logger } from 'pino';
import { SubscriptionUntilSubscribed } from '../shared/subscription-until-subscribed';
import { applyCacheEvent } from './cache-projection';

export const CACHE_PROJECTOR_GROUP = 'cache-projector';

/** Keeps the cache metadata in step with invalidations on the queue topic. */
@Injectable()
export class CacheProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: SubscriptionUntilSubscribed;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CACHE_STORE) private readonly store: CacheStore,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: ReadinessRegistry,
  ) {
    readiness.add({ name: 'projection (cache)', check: async () => ({ lag: await this.lag() }) });
  }

  /** Subscribes without holding up startup, retried until the log and the store can be reached. */
  onApplicationBootstrap(): void {
    this.subscription = new SubscriptionUntilSubscribed(
      this.log,
      {
        groupId: CACHE_PROJECTOR_GROUP,
        onStoreLost: (stream) => this.logger.error({ stream }, 'cache store lost its data (its checkpoint is gone): rebuilding it from the beginning of the log'),
        onRestartFailed: (error) => this.logger.error({ err: error }, 'cache projection: starting again after the store lost its data failed; retrying'),
        topic: TOPICS.queue,
        nextOffset: (stream) => this.store.nextOffset(stream),
        apply: (event, position) => applyCacheEvent(this.store, event, position),
        // Most queue events change no cache entry: move past them so a restart does not replay them.
        afterBatch: (stream, lastOffset) => this.store.advance(stream, lastOffset),
      },
      this.logger,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
  }

  /** Events on the queue topic not applied yet. */
  lag(): Promise<number> {
    return this.subscription?.lag() ?? Promise.resolve(0);
  }
}
