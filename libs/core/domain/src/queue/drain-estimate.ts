import { PRIORITIES, type Priority } from './priority';
import type { HostQueueCounts } from './queue-entry';

/**
 * The window over which a host's queue remembers its completions (completed
 * or given up, per priority): one counter per minute, the last ten minutes.
 * Counting in buckets keeps memory bounded by the window, not by traffic.
 */
export const COMPLETION_WINDOW = { bucketMs: 60_000, buckets: 10 } as const;

export const COMPLETION_WINDOW_MS = COMPLETION_WINDOW.bucketMs * COMPLETION_WINDOW.buckets;

/** The bucket (its start, epoch ms) a completion at `at` counts in. */
export function completionBucket(at: number): number {
  return Math.floor(at / COMPLETION_WINDOW.bucketMs) * COMPLETION_WINDOW.bucketMs;
}

/** Whether the bucket starting at `bucket` still counts at `now` (the current one and the nine before it). */
export function bucketInWindow(bucket: number, now: number): boolean {
  return bucket > completionBucket(now) - COMPLETION_WINDOW_MS;
}

/** Completions per priority within the window at `now`, from buckets (start → count). */
export function completionsInWindow(buckets: Iterable<readonly [number, number]>, now: number): number {
  let sum = 0;
  for (const [bucket, count] of buckets) if (bucketInWindow(bucket, now) && bucket <= now) sum += count;
  return sum;
}

/** Completions in the window per priority, for one host. */
export type RecentCompletions = Record<Priority, number>;

export function noRecentCompletions(): RecentCompletions {
  return { high: 0, normal: 0, autorecache: 0 };
}

/** Completions per minute over the window (the window's full length, so a burst reads as the average it is). */
export function completedPerMinute(completions: number): number {
  return Math.round((completions / (COMPLETION_WINDOW_MS / 60_000)) * 100) / 100;
}

export interface QueueDrainEstimate {
  /** Estimated seconds until the queue is empty; null while no completion rate is known (nothing completed in the window). */
  readonly seconds: number | null;
  readonly completedPerMinute: number;
}

export type HostDrainEstimate = Record<Priority, QueueDrainEstimate>;

/**
 * One queue's time to drain: its entries at its recent completion rate,
 * plus what is left of the host's pause (nothing drains before it ends). An
 * empty queue drains in 0 seconds; a queue with entries and no completion in
 * the window has no estimate (null). An estimate only: the rate is the past
 * ten minutes', entries not yet due count as if they were, and higher
 * priorities drain first.
 */
export function estimateQueueDrain(total: number, completions: number, pausedUntil: number | undefined, now: number): QueueDrainEstimate {
  const perMinute = completedPerMinute(completions);
  if (total === 0) return { seconds: 0, completedPerMinute: perMinute };
  if (completions === 0) return { seconds: null, completedPerMinute: 0 };
  const pauseLeft = pausedUntil !== undefined && pausedUntil > now ? (pausedUntil - now) / 1000 : 0;
  const draining = total / (completions / (COMPLETION_WINDOW_MS / 1000));
  return { seconds: Math.ceil(pauseLeft + draining), completedPerMinute: perMinute };
}

/** Every queue of a host (see `estimateQueueDrain`). */
export function estimateHostDrain(counts: HostQueueCounts, completions: RecentCompletions, pausedUntil: number | undefined, now: number): HostDrainEstimate {
  const estimate = {} as Record<Priority, QueueDrainEstimate>;
  for (const priority of PRIORITIES) estimate[priority] = estimateQueueDrain(counts[priority].total, completions[priority], pausedUntil, now);
  return estimate;
}
