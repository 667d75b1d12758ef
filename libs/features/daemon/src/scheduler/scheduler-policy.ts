import { assertNever, type Priority } from '@bpc/domain';
import type { RenderTrigger } from '@bpc/events';

/** Waits before the 2nd and 3rd attempts (spec: 5 s, then 10 s); later attempts keep the last wait. */
export const RETRY_BACKOFF_MS = [5_000, 10_000] as const;

export interface SchedulerLimits {
  readonly maxConcurrent: number;
  readonly maxRetries: number;
  readonly internalQueueMax: number;
  readonly timeoutPerUrlMs: number;
}

/** Delay after the given failed attempt (1-based) before the next one. */
export function retryDelayMs(failedAttempt: number): number {
  return RETRY_BACKOFF_MS[Math.min(failedAttempt, RETRY_BACKOFF_MS.length) - 1];
}

/** Entries pulled ahead of the workers: about 2 × max_concurrent, never more than the internal queue's bound. */
export function internalQueueTarget(limits: SchedulerLimits): number {
  return Math.max(1, Math.min(2 * limits.maxConcurrent, limits.internalQueueMax));
}

/**
 * How long a pulled entry stays claimed: every attempt, every backoff, and
 * the wait for a worker, with a margin. A daemon that dies leaves its claims
 * to expire; the entries then return to their queues (rendered again at worst).
 */
export function claimLeaseMs(limits: SchedulerLimits): number {
  const backoff = Array.from({ length: Math.max(0, limits.maxRetries - 1) }, (_, i) => retryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
  return 2 * limits.maxRetries * limits.timeoutPerUrlMs + backoff + 60_000;
}

/** What to do after an attempt failed: another attempt later, or give up. */
export function afterFailure(attemptNumber: number, limits: SchedulerLimits, now: number): { retryAt: number } | { giveUp: true } {
  return attemptNumber >= limits.maxRetries ? { giveUp: true } : { retryAt: now + retryDelayMs(attemptNumber) };
}

/** What asked for the render: the claim's priority, or a sitemap recache (queued at `normal` or `high`). */
export function triggerOf(claim: { readonly priority: Priority; readonly trigger?: 'sitemap' }): RenderTrigger {
  if (claim.trigger === 'sitemap') return 'sitemap';
  switch (claim.priority) {
    case 'high':
      return 'recache_high';
    case 'normal':
      return 'recache_normal';
    case 'autorecache':
      return 'autorecache';
    default:
      return assertNever(claim.priority);
  }
}
