import { isPriority, isRecacheMode, type Priority, type QueueItem } from '@bpc/domain';

/**
 * Checks of the calls both adapters take, made before anything changes; the
 * queue's rules themselves are the domain's (`decideEnqueue`, `decideClaim`, …).
 */

/** Inverse of `queueEntryKey`: the dimension id never contains the separator, the URL may. */
export function parseQueueEntryKey(key: string): { dimensionId: number; url: string } {
  const separator = key.indexOf('|');
  if (separator <= 0) throw new Error(`malformed queue entry key ${JSON.stringify(key)}`);
  return { dimensionId: Number(key.slice(0, separator)), url: key.slice(separator + 1) };
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
  if (request.trigger !== undefined && request.trigger !== 'sitemap') fail(`unknown trigger ${JSON.stringify(request.trigger)}`);
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
  readonly trigger?: string;
  readonly items: readonly QueueItem[];
}

/** Attempts an entry returns with: 0 (pulled, never tried) or more. */
export function assertAttemptsMade(attemptsMade: number): void {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) fail(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
}
