import type { Logger } from 'pino';
import { asQueueEvent, QueueEvent } from '@bpc/events';
import type { EventLog, LogBatch, Subscription } from '@bpc/event-log';
import type { ProjectionPosition } from '@bpc/queue-store';

export interface CheckpointedProjection {
  readonly groupId: string;
  readonly topic: string;
  /** The store's own checkpoint: where it stands, whatever the group committed. */
  nextOffset(stream: string): Promise<string | undefined>;
  apply(event: QueueEvent, position: ProjectionPosition): Promise<void>;
  /** After each batch: lets a store that ignores most events move its checkpoint past them. */
  afterBatch?(stream: string, lastOffset: string): Promise<void>;
}

/**
 * Subscribes a projection that keeps its checkpoint in its store. An empty
 * store (a fresh memory store, a Redis that lost its data) replays from the
 * beginning; a failed write rejects the batch, which the log retries — an
 * event is never logged and skipped, except one of a type or version this
 * build does not know.
 */
export function subscribeCheckpointed(log: EventLog, projection: CheckpointedProjection, logger: Logger): Promise<Subscription> {
  const apply = async (batch: LogBatch): Promise<void> => {
    const stream = `${batch.topic}:${batch.partition}`;
    for (const record of batch.records) {
      const event = asQueueEvent(record.event);
      if (!event) {
        logger.warn({ stream, offset: record.offset, type: record.event.type, version: record.event.version }, `${projection.groupId}: unknown event skipped`);
        continue;
      }
      await projection.apply(event, { stream, offset: record.offset, eventId: event.id });
    }
    const last = batch.records.at(-1);
    if (last && projection.afterBatch) await projection.afterBatch(stream, last.offset);
  };
  return log.subscribe({
    groupId: projection.groupId,
    topics: [projection.topic],
    startAt: async (topic, partition) => (await projection.nextOffset(`${topic}:${partition}`)) ?? '0',
    handleBatch: apply,
    maxBatchSize: 500,
  });
}
