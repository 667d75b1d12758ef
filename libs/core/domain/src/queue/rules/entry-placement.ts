import { PRIORITIES, type Priority } from '../priority';
import { queueEntryKey, type QueueItem } from '../queue-entry';
import type { RecacheMode } from '../recache-mode';
import { MERGE_POLICIES, QUEUE_RULE_TABLE, reached } from './queue-rule-table';

/**
 * The distinct entries a request names, keyed by `queueEntryKey`, in order of
 * first appearance. When an item repeats, a later explicit mode wins, the same
 * rule as for a later request (see `mergeEntry`).
 */
export function distinctItems(items: readonly QueueItem[]): Map<string, QueueItem> {
  const distinct = new Map<string, QueueItem>();
  for (const item of items) {
    const key = queueEntryKey(item.dimensionId, item.url);
    const seen = distinct.get(key);
    distinct.set(key, seen && item.mode === undefined ? seen : item);
  }
  return distinct;
}

/** Each priority once, in drain order; an empty array stays empty (the caller resolves defaults). */
export function distinctPriorities(priorities: readonly Priority[]): Priority[] {
  return PRIORITIES.filter((p) => priorities.includes(p));
}

export interface EntryPlacement {
  readonly priority: Priority;
  readonly dueAt: number;
  readonly mode?: RecacheMode;
}

/**
 * One entry per host + URL + dimension: when two placements meet (a request
 * for a queued entry, or a claim returning while a newer request queued the
 * same key) the survivor's fields follow `QUEUE_RULE_TABLE.merge`: the higher
 * priority, the earlier due time, and the newer side's explicit mode (else
 * the older one's). The caller keeps the queued entry's `entryId` and `attempt`.
 */
export function mergeEntry(older: EntryPlacement, newer: EntryPlacement): EntryPlacement {
  const { merge } = QUEUE_RULE_TABLE;
  const mode = MERGE_POLICIES[merge.mode](older.mode, newer.mode);
  return { priority: MERGE_POLICIES[merge.priority](older.priority, newer.priority), dueAt: MERGE_POLICIES[merge.dueAt](older.dueAt, newer.dueAt), ...(mode ? { mode } : {}) };
}

/** `entry` moved to `placement` (its mode replaced by the placement's, or dropped when it has none). */
export function withPlacement<T extends EntryPlacement>(entry: T, placement: EntryPlacement): T {
  const { mode: _previous, ...rest } = entry;
  return { ...rest, priority: placement.priority, dueAt: placement.dueAt, ...(placement.mode ? { mode: placement.mode } : {}) } as T;
}

/** Whether a host paused until `deadline` is still paused at `now` (until its deadline is `reached`). */
export function pausedAt(deadline: number | undefined, now: number): boolean {
  return deadline !== undefined && !reached(deadline, now);
}
