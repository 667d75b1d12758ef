import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog, Subscription } from '@bpc/event-log';
import { LOGGER, ReadinessRegistry } from '@bpc/platform';
import type { Logger } from 'pino';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { subscribeCheckpointed } from '../shared/checkpointed-projection';
import { applyQueueEvent } from './queue-projection';

export const QUEUE_PROJECTOR_GROUP = 'queue-projector';

/** Keeps the queue store in step with the queue topic. */
@Injectable()
export class QueueProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: ReadinessRegistry,
  ) {
    readiness.add({ name: 'projection (queue)', check: async () => ({ lag: await this.lag() }) });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await subscribeCheckpointed(
      this.log,
      {
        groupId: QUEUE_PROJECTOR_GROUP,
        onStoreLost: (stream) => this.logger.error({ stream }, 'queue store lost its data (its checkpoint is gone): rebuilding it from the beginning of the log'),
        onRestartFailed: (error) => this.logger.error({ err: error }, 'queue projection: starting again after the store lost its data failed; retrying'),
        topic: TOPICS.queue,
        nextOffset: (stream) => this.store.nextOffset(stream),
        apply: (event, position) => applyQueueEvent(this.store, event, position),
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
  }

  lag(): Promise<number> {
    return this.subscription?.lag() ?? Promise.resolve(0);
  }
}
