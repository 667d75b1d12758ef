import { PRIORITIES, isPriority, isRecacheMode, priorityRank, queueEntryKey, type Priority, type QueueItem, type RecacheMode } from '@bpc/domain';

/**
 * Pure rules shared by both adapters. The Redis adapter repeats them in Lua
 * (it must run them atomically inside Redis); the contract suite keeps the
 * two in step.
 */

/** Inverse of `queueEntryKey`: the dimension id never contains the separator, the URL may. */
export function parseQueueEntryKey(key: string): { dimensionId: number; url: string } {
  const separator = key.indexOf('|');
  if (separator <= 0) throw new Error(`malformed queue entry key ${JSON.stringify(key)}`);
  return { dimensionId: Number(key.slice(0, separator)), url: key.slice(separator + 1) };
}

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
 * same key) the survivor takes the higher priority, the earlier due time, and
 * the newer side's explicit mode (else the older one's). The caller keeps the
 * queued entry's `entryId` and `attempt`.
 */
export function mergeEntry(older: EntryPlacement, newer: EntryPlacement): EntryPlacement {
  const priority = priorityRank(newer.priority) < priorityRank(older.priority) ? newer.priority : older.priority;
  const mode = newer.mode ?? older.mode;
  return { priority, dueAt: Math.min(older.dueAt, newer.dueAt), ...(mode ? { mode } : {}) };
}

/**
 * Hosts in the order a claim serves them: ascending ids, starting after the
 * host served last by the previous claim, so every host gets its turn first.
 */
export function rotateAfter(sortedHostIds: readonly number[], lastServed: number | undefined): number[] {
  if (lastServed === undefined) return [...sortedHostIds];
  const start = sortedHostIds.findIndex((id) => id > lastServed);
  if (start <= 0) return [...sortedHostIds];
  return [...sortedHostIds.slice(start), ...sortedHostIds.slice(0, start)];
}

/**
 * Round-robin over candidate lists (one per host, each already in due order):
 * one item per list per round, lists in the given order, up to `limit` items.
 */
export function roundRobin<T>(lists: readonly (readonly T[])[], limit: number): { item: T; list: number }[] {
  const picked: { item: T; list: number }[] = [];
  for (let round = 0; picked.length < limit; round++) {
    let any = false;
    for (let list = 0; list < lists.length && picked.length < limit; list++) {
      if (round < lists[list].length) {
        picked.push({ item: lists[list][round], list });
        any = true;
      }
    }
    if (!any) break;
  }
  return picked;
}

function fail(message: string): never {
  throw new Error(`invalid queue store call: ${message}`);
}

/** Epoch milliseconds (or a duration) must be a finite number: NaN would corrupt due-time order. */
export function assertFiniteTime(name: string, value: number): void {
  if (!Number.isFinite(value)) fail(`${name} must be a finite number of milliseconds, got ${String(value)}`);
}

export function assertHostId(hostId: number): void {
  if (!Number.isSafeInteger(hostId)) fail(`hostId must be an integer, got ${String(hostId)}`);
}

/**
 * Checks a request completely before anything changes: adapters cannot roll
 * back half a change (a Redis script that fails midway keeps its earlier writes).
 */
export function assertEnqueueRequest(request: EnqueueRequestShape): void {
  assertHostId(request.hostId);
  if (!isPriority(request.priority)) fail(`unknown priority ${JSON.stringify(request.priority)}`);
  assertFiniteTime('dueAt', request.dueAt);
  if (typeof request.entryId !== 'string' || request.entryId === '') fail('entryId must be a non-empty string');
  for (const item of request.items) {
    if (typeof item.url !== 'string' || item.url === '') fail('every item needs a non-empty url');
    if (!Number.isSafeInteger(item.dimensionId)) fail(`dimensionId must be an integer, got ${String(item.dimensionId)}`);
    if (item.mode !== undefined && !isRecacheMode(item.mode)) fail(`unknown mode ${JSON.stringify(item.mode)}`);
  }
}

export function assertPriorities(priorities: readonly Priority[]): void {
  const unknown = priorities.find((p) => !isPriority(p));
  if (unknown !== undefined) fail(`unknown priority ${JSON.stringify(unknown)}`);
}

export function assertClaimRequest(request: { now: number; limit: number; leaseMs: number }): void {
  assertFiniteTime('now', request.now);
  if (!Number.isSafeInteger(request.limit) || request.limit < 0) fail(`limit must be a non-negative integer, got ${String(request.limit)}`);
  if (!Number.isFinite(request.leaseMs) || request.leaseMs <= 0) fail(`leaseMs must be a positive number, got ${String(request.leaseMs)}`);
}

interface EnqueueRequestShape {
  readonly hostId: number;
  readonly priority: Priority;
  readonly dueAt: number;
  readonly entryId: string;
  readonly items: readonly QueueItem[];
}

/** Attempts an entry returns with: 0 (pulled, never tried) or more. */
export function assertAttemptsMade(attemptsMade: number): void {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) fail(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
}
