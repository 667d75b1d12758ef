import type { ClaimedEntry, ClaimRequest, EnqueueRequest, EnqueueResult, HostQueueCounts, Priority, RecentCompletions } from '@bpc/domain';

/** The queue's commands and answers are the domain's (its rules decide them). */
export type { ClaimedEntry, ClaimRequest, EnqueueRequest, EnqueueResult };

export const QUEUE_STORE = Symbol('QUEUE_STORE');

/** An entry's identity within its host. */
export interface ClaimedKey {
  readonly url: string;
  readonly dimensionId: number;
}

/**
 * Where a mutation comes from in the event log. Projections pass it so that a
 * redelivered event is applied once: the store keeps, atomically with the
 * change, the last applied offset per stream and the result per event id.
 */
export interface ProjectionPosition {
  /** `${topic}:${partition}` */
  readonly stream: string;
  /** Canonical decimal integer string (may exceed 2^53); compared by value. */
  readonly offset: string;
  /** The result of the mutation is recorded under this id (see `resultOf`). */
  readonly eventId: string;
}

export type StoreResult<T> = { readonly applied: true; readonly value: T } | { readonly applied: false; readonly value: T | undefined };

/**
 * Queue state (the Redis side): recache queues per host and priority, per-host
 * pause, and the scheduler's claims.
 *
 * Guarantees, for every adapter:
 * - One entry per host + URL + dimension across the three priorities; a
 *   request at a higher priority moves the entry up (keeping the earlier due
 *   time), never down.
 * - Every method is atomic: a failure leaves no partial change.
 * - `claim` takes due entries of hosts that are not paused, `high` before
 *   `normal` before `autorecache`, round-robin across hosts within a priority
 *   so one busy host cannot starve the others; within a host and priority,
 *   earliest due first, entries due at the same time in key order
 *   (`dimensionId|url` as UTF-8 bytes: the domain's `QUEUE_RULE_TABLE.dueTies`).
 * - Claimed entries are out of their queue: purge does not touch them; they
 *   return to it only by `retryLater` or when their lease expires.
 * - A mutation given a position at or below the stream's applied offset
 *   changes nothing and answers `applied: false` with the result recorded for
 *   that event id, when it is still kept.
 */
export interface QueueStore {
  /**
   * True when the state lives in this process only and starts empty (or from
   * a snapshot) on every start: it answers for the whole queue only once the
   * log has been replayed into it, so startup waits for that replay.
   */
  readonly rebuiltOnStart: boolean;
  enqueue(request: EnqueueRequest, position?: ProjectionPosition): Promise<StoreResult<EnqueueResult>>;
  /**
   * Removes the queued entries of exactly the given priorities (the caller
   * resolves defaults; repeats count once; `[]` removes nothing); answers how
   * many were removed. Claimed entries are not touched.
   */
  purge(hostId: number, priorities: readonly Priority[], position?: ProjectionPosition): Promise<StoreResult<number>>;
  /**
   * Removes the queued entry of host + URL + dimension when it still answers
   * to `entryId`, answering whether one was removed. Projections
   * apply attempt outcomes with it, so a store rebuilt from the log does not
   * queue again what was already rendered or given up; a newer entry for the
   * same key (another request) is left alone.
   */
  settle(hostId: number, url: string, dimensionId: number, entryId: string, position?: ProjectionPosition): Promise<StoreResult<boolean>>;
  /** Pauses draining of a host until `expiresAt` (epoch ms), overwriting an earlier deadline. */
  pause(hostId: number, expiresAt: number, position?: ProjectionPosition): Promise<StoreResult<void>>;
  resume(hostId: number, position?: ProjectionPosition): Promise<StoreResult<void>>;
  /** Hosts paused at `now` (deadline > now), with their deadline (epoch ms); expired pauses are dropped on the way. */
  pausedHosts(now: number): Promise<ReadonlyMap<number, number>>;
  /** `{total, due_now}` per priority for every host that has entries or is named in `hostIds`. */
  counts(now: number, hostIds?: readonly number[]): Promise<ReadonlyMap<number, HostQueueCounts>>;
  /**
   * Atomically takes up to `limit` entries due at `now` from hosts not paused
   * at `now`: high (across hosts) before normal before autorecache; within a
   * priority one entry per host per round, earliest due first, hosts in id
   * order starting after the host served last by the previous call. Taken
   * entries leave their queue; a new request for the same key meanwhile
   * creates a new queued entry.
   */
  claim(request: ClaimRequest): Promise<ClaimedEntry[]>;
  /**
   * The attempt succeeded: the claim is released and counted, at `now`
   * (default: the wall clock), among the host's recent completions of its
   * priority. No-op for an unknown or expired-and-requeued claim.
   */
  complete(entry: ClaimedEntry, now?: number): Promise<void>;
  /**
   * Back to its queue, due at `dueAt`, with `attemptsMade` (default 1) added
   * to its attempt count: 0 returns an entry that was pulled but never tried
   * (a daemon shutting down). No-op for an unknown or expired-and-requeued claim.
   */
  retryLater(entry: ClaimedEntry, dueAt: number, attemptsMade?: number): Promise<void>;
  /** No more attempts: the claim is released, the entry dropped, and counted as `complete` counts. No-op for an unknown or expired-and-requeued claim. */
  giveUp(entry: ClaimedEntry, now?: number): Promise<void>;
  /**
   * Per host of `hostIds`, the claims completed or given up per priority
   * within the completion window ending at `now` (`COMPLETION_WINDOW`: per
   * minute buckets, so memory stays bounded; shared by every daemon on the
   * same store). A drain estimate divides queue sizes by it.
   */
  recentCompletions(now: number, hostIds: readonly number[]): Promise<ReadonlyMap<number, RecentCompletions>>;
  /** The keys of a host held by a live claim at `now` (being rendered): a recache receipt reports them `rendering`. */
  claimedKeys(hostId: number, now: number): Promise<readonly ClaimedKey[]>;
  /**
   * Result recorded by a positioned mutation, while kept (at least an hour):
   * `null` for a mutation without a value (pause, resume), undefined when
   * nothing is recorded for the event (not applied yet, or expired).
   */
  resultOf(eventId: string): Promise<unknown | undefined>;
  /** Next offset to read for a stream (one past the last applied), undefined when nothing was applied. */
  nextOffset(stream: string): Promise<string | undefined>;
  /** Readiness: resolves when the store answers, rejects with the reason otherwise. */
  check(): Promise<void>;
  close(): Promise<void>;
}
