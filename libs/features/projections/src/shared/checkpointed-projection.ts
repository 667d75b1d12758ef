import { asQueueEvent, QueueEvent, UnknownEventError } from '@bpc/events';
import { type EventLog, type LogBatch, type Subscription } from '@bpc/event-log';
import { retryUntilStopped } from '@bpc/support';
import type { ProjectionPosition } from '@bpc/queue-store';

export interface CheckpointedProjection {
  readonly groupId: string;
  readonly topic: string;
  /** The store's own checkpoint: where it stands, whatever the group committed. */
  nextOffset(stream: string): Promise<string | undefined>;
  apply(event: QueueEvent, position: ProjectionPosition): Promise<void>;
  /** After each batch: lets a store that ignores most events move its checkpoint past them. */
  afterBatch?(stream: string, lastOffset: string): Promise<void>;
  /** Told when the store lost its checkpoints while running (once per loss), before the replay from the beginning. */
  onStoreLost?(stream: string): void;
  /** Told when starting the subscription again after a loss failed; it is tried again with backoff. */
  onRestartFailed?(error: unknown): void;
}

/** The store no longer holds the checkpoint of a stream it had applied events of: it lost its data (a Redis restarted empty, flushed, failed over). */
export class ProjectionStoreLostError extends Error {
  override readonly name = 'ProjectionStoreLostError';
}

/**
 * Subscribes a projection that keeps its checkpoint in its store. An empty
 * store (a fresh memory store, a Redis that lost its data) replays from the
 * beginning; a failed write rejects the batch, which the log retries, and so
 * does an event of a type or version this build does not know
 * (UnknownEventError): no event is ever skipped.
 *
 * A store that loses its data while the projection runs is noticed at the
 * next batch (its checkpoint of the stream is gone): applying that batch
 * would record a checkpoint past everything lost, so the subscription is
 * started again instead, and the store is rebuilt from the beginning of the
 * log. The returned subscription stands for whichever is current.
 */
export async function subscribeCheckpointed(log: EventLog, projection: CheckpointedProjection): Promise<Subscription> {
  let current: Subscription;
  let restarting: Promise<void> | undefined;
  const wakeStop = new AbortController();
  const start = async (): Promise<Subscription> => {
    // Streams the store was seen holding a checkpoint of in this subscription (not every event writes one): from then on, a missing one means lost data.
    const held = new Set<string>();
    const checkHeld = async (stream: string): Promise<void> => {
      if ((await projection.nextOffset(stream)) !== undefined) {
        held.add(stream);
        return;
      }
      if (!held.has(stream)) return;
      if (restarting === undefined) {
        projection.onStoreLost?.(stream);
        restarting = restart();
      }
      throw new ProjectionStoreLostError(`${projection.groupId}: the store lost its checkpoint of ${stream}; replaying the log from the beginning`);
    };
    const apply = async (batch: LogBatch): Promise<void> => {
      const stream = `${batch.topic}:${batch.partition}`;
      await checkHeld(stream);
      for (const record of batch.records) {
        const event = asQueueEvent(record.event);
        if (!event) throw new UnknownEventError(projection.groupId, record.event, `${stream}@${record.offset}`);
        await projection.apply(event, { stream, offset: record.offset, eventId: event.id });
      }
      const last = batch.records.at(-1);
      if (last && projection.afterBatch) await projection.afterBatch(stream, last.offset);
      // Again after the batch: a loss while it was applied left a checkpoint past what was lost, unless it is noticed now.
      await checkHeld(stream);
    };
    return log.subscribe({
      groupId: projection.groupId,
      topics: [projection.topic],
      startAt: async (topic, partition) => {
        const stream = `${topic}:${partition}`;
        const next = await projection.nextOffset(stream);
        if (next !== undefined) held.add(stream);
        return next ?? '0';
      },
      handleBatch: apply,
      maxBatchSize: 500,
    });
  };
  // Not awaited by the batch that found the loss: stopping waits for that batch to end. Never rejects.
  const restart = async (): Promise<void> => {
    await new Promise((r) => setImmediate(r));
    try {
      await current.stop().catch((error: unknown) => projection.onRestartFailed?.(error));
      // The store or the log may still be down: tried again as the log retries a failed batch, until stop().
      const restarted = await retryUntilStopped(start, wakeStop.signal, { failed: (error) => projection.onRestartFailed?.(error) });
      if (restarted) current = restarted;
    } finally {
      restarting = undefined;
    }
  };
  current = await start();
  return {
    stop: async () => {
      wakeStop.abort();
      await restarting;
      await current.stop();
    },
    lag: () => current.lag(),
  };
}
