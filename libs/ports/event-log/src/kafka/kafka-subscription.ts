import type { Admin, Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { type LogSink, backoffDelay, BackoffOptions } from '@bpc/support';
import type { LogBatch, LogRecord, Subscription, SubscriptionSpec } from '../event-log.port';
import { describeError } from './kafka-errors';
import { StoredLogRecord } from '../stored-log-record';

export const DEFAULT_MAX_BATCH_SIZE = 500;

export interface KafkaSubscriptionOptions {
  readonly kafka: Kafka;
  readonly admin: () => Promise<Admin>;
  readonly spec: SubscriptionSpec;
  readonly fetchMaxWaitMs: number;
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly retry: { initialRetryTime: number; maxRetryTime: number; retries: number };
  readonly backoff: BackoffOptions;
  readonly log: LogSink;
  readonly onStopped: () => void;
}

/**
 * One kafkajs consumer in the subscription's group.
 *
 * - Batches are handled one partition at a time (kafkajs'
 *   `partitionsConsumedConcurrently: 1`), split into chunks of `maxBatchSize`.
 * - Auto-commit is off: a chunk's next offset is committed after `handleBatch`
 *   resolves, through the eachBatch commit hook, which still works while the
 *   consumer is stopping (the consumer-level `commitOffsets` silently skips
 *   then), so `stop()` commits the chunk in progress.
 * - A rejection seeks the partition back to its first unhandled record and
 *   pauses it for a backoff delay; other partitions go on.
 * - `startAt` is asked for every partition of each new assignment (each
 *   GROUP_JOIN) and the partition is sought there before any of its records
 *   reach the handler; a batch fetched before the seek is dropped.
 */
export class KafkaSubscription implements Subscription {
  private readonly consumer: Consumer;
  /** Per "topic|partition" of the current assignment: startAt being applied (see `assigned`). */
  private positioning = new Map<string, Promise<void>>();
  /**
   * Next offset to handle per assigned partition, as this process knows it:
   * where `startAt` positioned it, then after each handled chunk. The group's
   * committed offset is a previous run's when `startAt` seeks back (a replay
   * from '0' would otherwise count as caught up before it began).
   */
  private readonly positions = new Map<string, bigint>();
  private readonly failures = new Map<string, number>();
  private readonly resumeTimers = new Set<NodeJS.Timeout>();
  private stopped?: Promise<void>;
  /** Crashes kafkajs did not restart the consumer after (see `start`), for the backoff. */
  private crashes = 0;

  constructor(private readonly options: KafkaSubscriptionOptions) {
    this.consumer = options.kafka.consumer({
      groupId: options.spec.groupId,
      allowAutoTopicCreation: true,
      maxWaitTimeInMs: options.fetchMaxWaitMs,
      sessionTimeout: options.sessionTimeoutMs,
      heartbeatInterval: options.heartbeatIntervalMs,
      retry: { ...options.retry, restartOnFailure: async () => true },
    });
  }

  /** Joins the group; resolves once the first assignment is done (kafkajs' `run` waits for it). */
  async start(): Promise<void> {
    const { spec } = this.options;
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => {
      this.crashes = 0;
      this.assigned(event.payload.memberAssignment);
    });
    this.consumer.on(this.consumer.events.CRASH, (event) => {
      const { error, restart } = event.payload;
      this.options.log.error({ groupId: spec.groupId, err: error, restart }, 'kafka event log: consumer crashed');
      // kafkajs restarts a consumer only after a retriable error; after any other (a broker answering a
      // group request as invalid, say) it stays stopped while the process looks healthy, and its projection
      // stands still. Run it again, after a backoff, until the subscription is stopped.
      if (!restart && !this.stopped) this.runAgainLater();
    });
    try {
      await this.consumer.connect();
      await this.consumer.subscribe({ topics: [...new Set(spec.topics)], fromBeginning: true });
      await this.run();
    } catch (error) {
      await this.consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  private run(): Promise<void> {
    return this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  private runAgainLater(): void {
    this.crashes += 1;
    const delayMs = backoffDelay(this.crashes, this.options.backoff);
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      if (this.stopped) return;
      this.options.log.warn({ groupId: this.options.spec.groupId, crashes: this.crashes }, 'kafka event log: running the crashed consumer again');
      this.run().catch((error) => {
        this.options.log.error({ groupId: this.options.spec.groupId, err: describeError(error) }, 'kafka event log: the crashed consumer did not start again');
        this.runAgainLater();
      });
    }, delayMs);
    this.resumeTimers.add(timer);
  }

  /** Stops fetching, lets the chunk in progress finish and commit, leaves the group. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      for (const timer of this.resumeTimers) clearTimeout(timer);
      this.resumeTimers.clear();
      try {
        await this.consumer.disconnect();
      } finally {
        this.options.onStopped();
      }
    })();
    return this.stopped;
  }

  /**
   * High watermark minus the next offset to handle, summed: this process's
   * position where it has one (see `positions`), else the group's committed
   * offset (or the low watermark when none).
   */
  async lag(): Promise<number> {
    await Promise.allSettled(this.positioning.values());
    const admin = await this.options.admin();
    const topics = [...new Set(this.options.spec.topics)];
    const committed = await admin.fetchOffsets({ groupId: this.options.spec.groupId, topics });
    let lag = 0;
    for (const topic of topics) {
      const watermarks = await admin.fetchTopicOffsets(topic);
      const group = committed.find((c) => c.topic === topic)?.partitions ?? [];
      for (const { partition, high, low } of watermarks) {
        const position = this.positions.get(`${topic}|${partition}`);
        const offset = position !== undefined ? Number(position) : Number(group.find((p) => p.partition === partition)?.offset ?? -1);
        lag += Math.max(0, Number(high) - Math.max(offset, Number(low)));
      }
    }
    return lag;
  }

  /**
   * Starts applying `startAt` to a new assignment. Called synchronously from
   * kafkajs' GROUP_JOIN event, before the first fetch of the generation, so
   * `eachBatch` always finds the pending positioning of its partition.
   */
  private assigned(assignment: Record<string, number[]>): void {
    this.options.spec.assigned?.(Object.entries(assignment).flatMap(([topic, partitions]) => partitions.map((partition) => ({ topic, partition }))));
    const startAt = this.options.spec.startAt;
    this.positioning = new Map();
    this.positions.clear();
    if (!startAt) return;
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions) this.position(topic, partition, startAt);
    }
  }

  /** Asks `startAt` where `partition` starts, and seeks there once it answers; `eachBatch` waits for it. */
  private position(topic: string, partition: number, startAt: NonNullable<SubscriptionSpec['startAt']>): void {
    const positioned = startAt(topic, partition).then((offset) => {
      if (offset === undefined) return;
      this.positions.set(`${topic}|${partition}`, BigInt(offset));
      this.consumer.seek({ topic, partition, offset });
    });
    positioned.catch(() => undefined);
    this.positioning.set(`${topic}|${partition}`, positioned);
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, isRunning, isStale } = payload;
    const positioning = this.positioning.get(`${batch.topic}|${batch.partition}`);
    if (positioning) {
      try {
        await positioning;
      } catch (error) {
        // Without a known start nothing may be handled. Asked again for kafkajs' next try of this batch: one store blip must not hold the partition until its retries run out and the group rejoins (10 s and more).
        this.position(batch.topic, batch.partition, this.options.spec.startAt!);
        throw new Error(`startAt(${batch.topic}, ${batch.partition}) failed: ${describeError(error)}`);
      }
      // A pending seek means this batch was fetched from the old position.
      if (isStale()) return;
    }
    const max = this.options.spec.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    for (let from = 0; from < batch.messages.length; from += max) {
      if (!isRunning() || isStale()) return;
      const chunk = batch.messages.slice(from, from + max);
      if (!(await this.handleChunk(payload, chunk))) return;
    }
  }

  /** Hands one chunk to the handler and commits it; false when the partition was parked after a failure. */
  private async handleChunk(payload: EachBatchPayload, chunk: readonly KafkaMessage[]): Promise<boolean> {
    const { batch } = payload;
    const key = `${batch.topic}|${batch.partition}`;
    try {
      const records = chunk.map((message) => toRecord(batch.topic, batch.partition, message));
      await this.options.spec.handleBatch({ topic: batch.topic, partition: batch.partition, records } satisfies LogBatch);
    } catch (error) {
      this.park(payload, chunk[0].offset, error);
      return false;
    }
    const last = chunk[chunk.length - 1].offset;
    // A batch that went stale in a rebalance is no longer this process's to count.
    if (!payload.isStale()) this.positions.set(key, BigInt(last) + 1n);
    const next = String(BigInt(last) + 1n);
    await payload.commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: next }] }] });
    payload.resolveOffset(last);
    this.failures.delete(key);
    await payload.heartbeat();
    return true;
  }

  /** Seeks back to the first unhandled record and pauses the partition for a backoff delay. */
  private park(payload: EachBatchPayload, firstUnhandled: string, error: unknown): void {
    const { topic, partition } = payload.batch;
    const key = `${topic}|${partition}`;
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    const delayMs = backoffDelay(failures, this.options.backoff);
    this.consumer.seek({ topic, partition, offset: firstUnhandled });
    const resume = payload.pause();
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      resume();
    }, delayMs);
    this.resumeTimers.add(timer);
    this.options.log.warn(
      { groupId: this.options.spec.groupId, topic, partition, offset: firstUnhandled, failures, retryInMs: delayMs, err: describeError(error) },
      'kafka event log: handleBatch failed; the partition is retried from its first unhandled record',
    );
  }
}

function toRecord(topic: string, partition: number, message: KafkaMessage): LogRecord {
  if (!message.value) throw new Error(`record ${topic}/${partition}@${message.offset} has no value`);
  return new StoredLogRecord(topic, partition, message.offset, message.value);
}
