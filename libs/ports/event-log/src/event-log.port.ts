import type { EventEnvelope } from '@bpc/events';

export const EVENT_LOG = Symbol('EVENT_LOG');

/** One event as stored in a topic partition. */
export interface LogRecord {
  readonly topic: string;
  readonly partition: number;
  /** Position in the partition, a decimal integer string (Kafka style); increases by one per record. */
  readonly offset: string;
  readonly event: EventEnvelope;
  /**
   * The event's stored JSON bytes, where the adapter read the record back
   * (both adapters do): a consumer that hands records on as bytes need not
   * parse them, and `event` is then parsed on first use only.
   */
  readonly payload?: Buffer;
}

/** Records of one partition, in offset order. */
export interface LogBatch {
  readonly topic: string;
  readonly partition: number;
  readonly records: readonly LogRecord[];
}

export interface SubscriptionSpec {
  /** Consumer group; committed offsets are kept per group, topic and partition. */
  readonly groupId: string;
  readonly topics: readonly string[];
  /**
   * Where to start a partition. Returning an offset (the next offset to read)
   * overrides the group's committed offset: projections that keep their own
   * checkpoint in their store use it. Returning undefined uses the committed
   * offset, or the beginning of the partition when none is committed.
   *
   * Asked when the partition is assigned to this subscriber (at `subscribe`,
   * and in cluster mode again after every rebalance); no record of the
   * partition is handed over before it has answered. An offset below the
   * earliest retained record starts at the earliest; one past the end is out
   * of range and, as Kafka resets it, starts at the earliest too (replay is
   * safe for idempotent consumers, skipping is not).
   */
  readonly startAt?: (topic: string, partition: number) => Promise<string | undefined>;
  /**
   * Told which partitions this subscriber holds, each time that changes: at
   * `subscribe` (the file log: every partition of the topics), and in cluster
   * mode at every rebalance, before `startAt` is asked for them. A partition
   * missing from the latest call is another subscriber's now: a consumer that
   * acts on per-partition state in memory (timers, retries) stops acting on it.
   */
  readonly assigned?: (partitions: readonly { readonly topic: string; readonly partition: number }[]) => void;
  /**
   * Called with consecutive records of one partition. The next offset is
   * committed only after the returned promise resolves; a rejection stops that
   * partition, which is retried with backoff from the first uncommitted
   * record (at-least-once: a record may be delivered again, never skipped).
   *
   * Calls for one subscription never overlap (one partition at a time), so a
   * handler needs no locking of its own; other partitions go on while a
   * failed one waits for its retry.
   */
  readonly handleBatch: (batch: LogBatch) => Promise<void>;
  /** Upper bound on records per batch. */
  readonly maxBatchSize?: number;
}

/** Returned once the subscription is positioned (cluster mode: has joined its group). */
export interface Subscription {
  /** Stops fetching, waits for the batch in progress, commits its offset. Idempotent. */
  stop(): Promise<void>;
  /** Records appended but not yet handled, summed over the subscribed partitions. */
  lag(): Promise<number>;
}

/**
 * The event log: the source of truth.
 *
 * Guarantees, for every adapter:
 * - `append` resolves only when every event is durable (fsync'd / acknowledged
 *   by all in-sync replicas); a rejected append may have stored some events,
 *   never a torn one. Events of one call keep their order.
 * - Events with the same `key` go to the same partition (Kafka's murmur2
 *   partitioner in both modes) and keep their order across appends that are
 *   awaited one after the other. Appends are concurrency-safe; concurrent
 *   ones are ordered by call in standalone mode, in arrival order in Kafka.
 * - Delivery to a group is at least once; committed offsets survive restarts.
 * - A new group (or `startAt` returning '0') replays a partition from its beginning.
 *
 * Topic names follow Kafka's rule in both modes: 1-249 characters among
 * `a-z A-Z 0-9 . _ -`.
 */
export interface EventLog {
  append(topic: string, events: readonly EventEnvelope[]): Promise<void>;
  subscribe(spec: SubscriptionSpec): Promise<Subscription>;
  /** Readiness: resolves when the log can take appends, rejects with the reason otherwise. */
  check(): Promise<void>;
  /** Refuses new appends, flushes pending ones and stops every subscription (each committing its batch in progress). Idempotent. */
  close(): Promise<void>;
}
