import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { caughtUpWithin } from '@bpc/support';
import { LOGGER, ReadinessRegistry } from '@bpc/platform';
import type { Logger } from 'pino';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { SubscriptionUntilSubscribed } from '../shared/subscription-until-subscribed';
import { applyQueueEvent } from './queue-projection';

export const QUEUE_PROJECTOR_GROUP = 'queue-projector';
/** Longest startup waits for an in-process queue store to be rebuilt (then the other apps start anyway, and it goes on). */
const IN_PROCESS_REBUILD_MS = 60_000;

/**
 * Keeps the queue store in step with the queue topic. A store rebuilt on
 * start (`QueueStore.rebuiltOnStart`: the memory one, empty or from its last
 * snapshot) is replayed from the log and startup waits for that (the
 * projector app starts first), so the daemon's first `/status` and the
 * scheduler's first claim see the whole queue, not the part replayed so far. Kafka or Redis not reachable yet does not stop
 * startup: the subscription is retried until they are (readiness says so).
 */
@Injectable()
export class QueueProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: SubscriptionUntilSubscribed;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: ReadinessRegistry,
  ) {
    readiness.add({ name: 'projection (queue)', check: async () => ({ lag: await this.lag() }) });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = new SubscriptionUntilSubscribed(
      this.log,
      {
        groupId: QUEUE_PROJECTOR_GROUP,
        onStoreLost: (stream) => this.logger.error({ stream }, 'queue store lost its data (its checkpoint is gone): rebuilding it from the beginning of the log'),
        onRestartFailed: (error) => this.logger.error({ err: error }, 'queue projection: starting again after the store lost its data failed; retrying'),
        topic: TOPICS.queue,
        nextOffset: (stream) => this.store.nextOffset(stream),
        apply: (event, position) => applyQueueEvent(this.store, event, position),
      },
      this.logger,
    );
    await this.subscription.started();
    if (this.store.rebuiltOnStart) await this.rebuilt();
  }

  private async rebuilt(): Promise<void> {
    if (!(await caughtUpWithin(() => this.lag(), IN_PROCESS_REBUILD_MS))) {
      this.logger.warn({ lag: await this.lag(), waitedMs: IN_PROCESS_REBUILD_MS }, 'queue store still being rebuilt from the log: starting the other apps anyway');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
  }

  lag(): Promise<number> {
    return this.subscription?.lag() ?? Promise.resolve(0);
  }
}
