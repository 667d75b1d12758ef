import type { Priority } from '../priority';
import type { QueueItem } from '../queue-entry';

export interface EnqueueRequest {
  readonly hostId: number;
  readonly priority: Priority;
  /** Epoch milliseconds when the entries become due. */
  readonly dueAt: number;
  readonly items: readonly QueueItem[];
  /**
   * The request (event) id. An entry answers to the latest request that
   * queued it — one that creates, keeps or promotes it — so an outcome naming
   * the request an entry had when it was claimed never settles work that was
   * requested again after the claim (live or when rebuilt from the log).
   */
  readonly entryId: string;
  /**
   * `sitemap` when the request came from a sitemap recache. Like `entryId`,
   * an entry carries the trigger of the latest request that queued it
   * (absent clears it).
   */
  readonly trigger?: QueueTrigger;
}

/** What queued an entry, when render history must tell it apart from its priority. */
export type QueueTrigger = 'sitemap';

/**
 * `enqueued` = created + kept (+ promoted, a kept entry moved up); repeats of a
 * URL + dimension within one request count once. A later explicit `mode`
 * replaces the entry's mode; an item without mode keeps it.
 */
export interface EnqueueResult {
  /** Entries this request placed or kept in the queue (one per host + URL + dimension). */
  readonly enqueued: number;
  /** Entries that did not exist before. */
  readonly created: number;
  /** Entries moved to a higher priority by this request. */
  readonly promoted: number;
}

/**
 * An entry pulled by the scheduler: out of its queue, leased until
 * `leaseUntil`. `claimId` names this lease only: once the lease expired and
 * the entry went back to its queue, outcome calls with this claim do nothing.
 */
export interface ClaimedEntry {
  readonly hostId: number;
  readonly url: string;
  readonly dimensionId: number;
  readonly priority: Priority;
  readonly mode?: QueueItem['mode'];
  readonly entryId: string;
  /** `sitemap` when the request that last queued the entry came from a sitemap recache (render history's trigger); absent otherwise. */
  readonly trigger?: QueueTrigger;
  /** Attempts already made before this claim (0 on the first). */
  readonly attempt: number;
  readonly claimId: string;
  readonly leaseUntil: number;
}

export interface ClaimRequest {
  readonly now: number;
  readonly limit: number;
  /**
   * How long a claim is held. A lease with `leaseUntil <= now` of a later
   * claim call has expired: that call first puts the entry back into its
   * queue (same priority, original due time, same attempt count), so an
   * entry is never lost, at worst dispatched twice.
   */
  readonly leaseMs: number;
}
