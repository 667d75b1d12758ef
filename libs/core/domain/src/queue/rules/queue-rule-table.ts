import { PRIORITIES, priorityRank, type Priority } from '../priority';
import type { RecacheMode } from '../recache-mode';
import { compareKeys, sortByKey } from './compare-keys';

/**
 * The queue's rules that an engine evaluates inside itself (a Redis claim
 * under contention), as data. The TypeScript rules read this table, and the
 * Redis store generates its Lua from it (`redis-queue-rules-lua.ts`), so
 * neither can change a rule without the other.
 */
export const QUEUE_RULE_TABLE = {
  /** Claims take priorities in this order; "higher" means earlier in it. */
  drainOrder: PRIORITIES,
  /** When two placements of one key meet, which value each field keeps (`mergeEntry`). */
  merge: { priority: 'higher', dueAt: 'earlier', mode: 'newer-if-set' },
  /**
   * Whether a moment `at` is reached at `now` when they are equal: an entry
   * is due from its due time, a lease has expired at its end, a pause has
   * ended at its deadline.
   */
  reachedWhenEqual: true,
  /**
   * Entries of one host and priority due at the same time are served in key
   * order (`queueEntryKey`, its UTF-8 bytes compared): the order in which
   * Redis keeps the members of a sorted set with equal scores, so Redis
   * needs nothing written for it, and every store serves ties alike.
   */
  dueTies: 'key-bytes',
} as const;

/** What each merge policy keeps, given the older and the newer value. */
export const MERGE_POLICIES = {
  higher: (older: Priority, newer: Priority): Priority => (priorityRank(newer) < priorityRank(older) ? newer : older),
  earlier: (older: number, newer: number): number => Math.min(older, newer),
  'newer-if-set': (older: RecacheMode | undefined, newer: RecacheMode | undefined): RecacheMode | undefined => newer ?? older,
} as const;

/** How each tie order compares two entry keys, and sorts entries of one due time (see `dueTies`). */
export const DUE_TIE_ORDERS = {
  'key-bytes': { compare: compareKeys, sort: sortByKey },
} as const;

/** Whether the moment `at` is reached at `now` (see `reachedWhenEqual`). */
export function reached(at: number, now: number): boolean {
  return QUEUE_RULE_TABLE.reachedWhenEqual ? at <= now : at < now;
}
