import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { asQueueEvent, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import { LOGGER } from '@bpc/platform';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { applyQueueEvent } from './queue-projection';

export const QUEUE_PROJECTOR_GROUP = 'queue-projector';

/**
 * Keeps the queue store in step with the queue topic. It starts each
 * partition from the store's own checkpoint (so a rebuilt memory store
 * replays what it lacks) and a failed write stops the partition for a retry;
 * nothing is logged and skipped.
 */
@Injectable()
export class QueueProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.log.subscribe({
      groupId: QUEUE_PROJECTOR_GROUP,
      topics: [TOPICS.queue],
      // The store is the authority on what it holds: an empty store (a fresh
      // memory store, a Redis that lost its data) replays from the beginning.
      startAt: async (topic, partition) => (await this.store.nextOffset(`${topic}:${partition}`)) ?? '0',
      handleBatch: (batch) => this.apply(batch),
      maxBatchSize: 500,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
  }

  lag(): Promise<number> {
    return this.subscription?.lag() ?? Promise.resolve(0);
  }

  private async apply(batch: LogBatch): Promise<void> {
    const stream = `${batch.topic}:${batch.partition}`;
    for (const record of batch.records) {
      const event = asQueueEvent(record.event);
      if (!event) {
        this.logger.warn({ stream, offset: record.offset, type: record.event.type, version: record.event.version }, 'queue projector: unknown event skipped');
        continue;
      }
      await applyQueueEvent(this.store, event, { stream, offset: record.offset, eventId: event.id });
    }
  }
}
