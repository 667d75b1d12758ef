import type { Priority } from '../priority';
import type { RecacheMode } from '../recache-mode';
import type { QueueTrigger } from './queue-commands';

/** One queued entry: one per host + URL + dimension (`key` = `queueEntryKey`). */
export interface QueuedEntry {
  readonly hostId: number;
  readonly key: string;
  readonly url: string;
  readonly dimensionId: number;
  readonly mode?: RecacheMode;
  readonly priority: Priority;
  readonly dueAt: number;
  /** The request the entry answers to (see `EnqueueRequest.entryId`). */
  readonly entryId: string;
  /** The trigger of the request the entry answers to (see `EnqueueRequest.trigger`). */
  readonly trigger?: QueueTrigger;
  readonly attempt: number;
}

/** A claimed entry: out of its queue until its outcome or `leaseUntil`. */
export interface Lease {
  /** The entry as it was queued when claimed (its due time kept for its place in line on return). */
  readonly entry: QueuedEntry;
  readonly claimId: string;
  readonly leaseUntil: number;
}

/**
 * What the queue's decisions produce and its states apply, in order. However
 * an entry comes into its queue (queued, replaced, returned from its lease),
 * it takes its place by due time, then key (`QUEUE_RULE_TABLE.dueTies`).
 */
export type QueueChange =
  /** Keys not queued before: a request's new entries, placed together. */
  | { readonly type: 'entries-queued'; readonly entries: readonly QueuedEntry[] }
  /** A queued key with a new priority, due time, mode or request. */
  | { readonly type: 'entry-replaced'; readonly entry: QueuedEntry }
  | { readonly type: 'entry-removed'; readonly hostId: number; readonly key: string }
  | { readonly type: 'queues-purged'; readonly hostId: number; readonly priorities: readonly Priority[] }
  | { readonly type: 'host-paused'; readonly hostId: number; readonly expiresAt: number }
  /** Resumed, or the pause expired. */
  | { readonly type: 'pause-lifted'; readonly hostId: number }
  /** Out of its queue into a lease; its host becomes the one served last. */
  | { readonly type: 'entry-leased'; readonly lease: Lease }
  /** Completed, given up, or returned by merging into a queued entry of the same key. */
  | { readonly type: 'lease-ended'; readonly claimId: string }
  /** The lease ends and its entry is queued again as `entry` (no entry of its key was queued). */
  | { readonly type: 'lease-returned'; readonly claimId: string; readonly entry: QueuedEntry };

/** What the decisions read of a queue state (`QueueState` answers it). */
export interface QueueView {
  queued(hostId: number, key: string): QueuedEntry | undefined;
  /** Queued entries of a host at one priority. */
  queuedCount(hostId: number, priority: Priority): number;
  /** Hosts with at least one queued entry, in any order. */
  hostsWithEntries(): Iterable<number>;
  /** Up to `limit` entries of a host and priority due at `now` (dueAt ≤ now), earliest first, entries due at the same time in key order (`QUEUE_RULE_TABLE.dueTies`). */
  firstDue(hostId: number, priority: Priority, now: number, limit: number): readonly QueuedEntry[];
  lease(claimId: string): Lease | undefined;
  /** Every lease, in the order they were taken. */
  leases(): Iterable<Lease>;
  /** Host → pause deadline (epoch ms), expired ones included until dropped. */
  pauses(): Iterable<readonly [number, number]>;
  pausedUntil(hostId: number): number | undefined;
  /** Host served last by a claim, where the next claim's rotation starts. */
  readonly lastServedHost: number | undefined;
}

/** A decision: the events to apply, in order, and what the caller answers. */
export interface QueueDecision<T> {
  readonly events: readonly QueueChange[];
  readonly result: T;
}
