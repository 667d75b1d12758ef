import { type LogSink, backoffDelay, BackoffOptions } from '@bpc/support';
import type { Subscription, SubscriptionSpec } from '../event-log.port';
import type { GroupOffsetStore } from './group-offset-store';
import type { LogBatch } from '../event-log.port';
import { storedLogBatch } from '../stored-log-record';
import type { PartitionCursor } from './partition-cursor';
import type { PartitionLog } from './partition-log';
import { WakeSignal } from './wake-signal';

export const DEFAULT_MAX_BATCH_SIZE = 500;

/** Consumption state of one subscribed partition. */
interface PartitionState {
  readonly log: PartitionLog;
  readonly cursor: PartitionCursor;
  /** Next offset to hand to the handler once everything before it succeeded. */
  handled: number;
  failures: number;
  retryAt: number;
  stopListening: () => void;
}

export interface FileSubscriptionOptions {
  readonly spec: SubscriptionSpec;
  readonly partitions: readonly PartitionLog[];
  readonly offsets: GroupOffsetStore;
  readonly backoff: BackoffOptions;
  readonly log: LogSink;
  readonly onStopped: () => void;
}

/**
 * A group's subscription to topics of the file log, in this process.
 *
 * One loop serves every subscribed partition in turn, so `handleBatch` calls
 * of one subscription never overlap (as with kafkajs' default of one
 * partition at a time). Each partition is handed its records in offset order;
 * its offset is committed only after `handleBatch` resolves. A rejection
 * rewinds that partition to its first unhandled record and parks it for a
 * backoff delay while the other partitions go on. Appends wake the loop
 * directly (no polling), which keeps append-to-handle latency low.
 */
export class FileSubscription implements Subscription {
  private readonly states: PartitionState[] = [];
  private readonly signal = new WakeSignal();
  private stopping = false;
  private loop?: Promise<void>;
  private stopped?: Promise<void>;

  constructor(private readonly options: FileSubscriptionOptions) {}

  /** Resolves every partition's start position (startAt, committed, earliest), then starts the loop. */
  async start(): Promise<void> {
    // One subscriber per group in the process: it holds every partition, for good.
    this.options.spec.assigned?.(this.options.partitions.map((log) => ({ topic: log.topic, partition: log.partition })));
    const starts: number[] = [];
    for (const log of this.options.partitions) starts.push(await this.startOffset(log));
    this.options.partitions.forEach((log, i) => {
      const stopListening = log.onAppend(() => this.signal.notify());
      this.states.push({ log, cursor: log.openCursor(starts[i]), handled: starts[i], failures: 0, retryAt: 0, stopListening });
    });
    this.loop = this.run();
  }

  /** Stops after the batch in progress (whose offset is committed), then makes the commits durable. */
  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  async lag(): Promise<number> {
    return this.states.reduce((sum, s) => sum + Math.max(0, s.log.endOffset - Math.max(s.handled, s.log.earliestOffset)), 0);
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    this.signal.notify();
    try {
      await this.loop;
      await this.options.offsets.flush();
    } finally {
      for (const state of this.states) {
        state.stopListening();
        await state.cursor.detach();
      }
      this.options.onStopped();
    }
  }

  private async startOffset(log: PartitionLog): Promise<number> {
    const { spec, offsets } = this.options;
    const override = spec.startAt ? await spec.startAt(log.topic, log.partition) : undefined;
    const wanted = override !== undefined ? parseOffset(override) : (offsets.get(log.topic, log.partition) ?? log.earliestOffset);
    if (wanted > log.endOffset) {
      // Like Kafka's out-of-range reset to earliest: replaying is safe for idempotent consumers, skipping is not.
      this.options.log.warn(
        { groupId: spec.groupId, topic: log.topic, partition: log.partition, wanted, end: log.endOffset, earliest: log.earliestOffset },
        'event log: start offset is past the end of the partition; starting from the earliest record',
      );
      return log.earliestOffset;
    }
    return Math.max(wanted, log.earliestOffset);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const generation = this.signal.generation;
      let progressed = false;
      for (const state of this.states) {
        if (this.stopping) break;
        if (state.retryAt > Date.now()) continue;
        try {
          progressed = (await this.pump(state)) || progressed;
        } catch (error) {
          // Only a failing rewind gets here; keep the loop alive and try the partition again later.
          state.retryAt = Date.now() + backoffDelay(++state.failures, this.options.backoff);
          this.options.log.error({ groupId: this.options.spec.groupId, topic: state.log.topic, partition: state.log.partition, err: error }, 'event log: consumer step failed');
        }
      }
      if (!progressed && !this.stopping) await this.signal.wait(generation, this.nextRetryAt() - Date.now());
    }
  }

  /**
   * When the earliest parked partition may be retried (Infinity: none parked).
   * A retry time already past counts too (the wait is then zero): skipping it
   * would leave the loop asleep until the next append, which may never come.
   */
  private nextRetryAt(): number {
    return this.states.reduce((next, s) => (s.failures > 0 ? Math.min(next, s.retryAt) : next), Number.POSITIVE_INFINITY);
  }

  /** Hands one batch of `state`'s partition to the handler; true when it made progress. */
  private async pump(state: PartitionState): Promise<boolean> {
    const { spec } = this.options;
    let batch: LogBatch;
    let nextOffset: number;
    try {
      const stored = await state.log.read(state.cursor, spec.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE);
      if (stored.count === 0) {
        // Nothing pending: not a failing partition (keeps a past retry time from spinning the loop).
        state.failures = 0;
        return false;
      }
      batch = storedLogBatch(state.log.topic, state.log.partition, stored);
      nextOffset = stored.firstOffset + stored.count;
    } catch (error) {
      await this.park(state, error, 'read');
      return false;
    }
    try {
      await spec.handleBatch(batch);
    } catch (error) {
      await this.park(state, error, 'handleBatch');
      return false;
    }
    state.handled = nextOffset;
    state.failures = 0;
    this.options.offsets.commit(state.log.topic, state.log.partition, state.handled);
    return true;
  }

  /** Rewinds the partition to its first unhandled record and schedules a retry. */
  private async park(state: PartitionState, error: unknown, stage: string): Promise<void> {
    state.failures += 1;
    const delayMs = backoffDelay(state.failures, this.options.backoff);
    state.retryAt = Date.now() + delayMs;
    await state.cursor.seek(state.handled);
    this.options.log.warn(
      { groupId: this.options.spec.groupId, topic: state.log.topic, partition: state.log.partition, offset: state.handled, failures: state.failures, retryInMs: delayMs, err: error },
      `event log: ${stage} failed; the partition is retried from its first unhandled record`,
    );
  }
}

function parseOffset(offset: string): number {
  if (!/^\d+$/.test(offset)) throw new Error(`startAt returned ${JSON.stringify(offset)}: expected a decimal offset`);
  return Number(offset);
}
