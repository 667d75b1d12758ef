import type { QueueDecision, QueueView } from './queue-changes';
import { returnToQueue } from './return-to-queue';

/**
 * Back to the queue, due at `dueAt`, with `attemptsMade` more attempts
 * (0: pulled but never tried). Nothing for an unknown or expired-and-returned claim.
 */
export function decideRetry(view: QueueView, claimId: string, dueAt: number, attemptsMade: number): QueueDecision<void> {
  const lease = view.lease(claimId);
  if (!lease) return { events: [], result: undefined };
  const returning = { ...lease.entry, dueAt, attempt: lease.entry.attempt + attemptsMade };
  return { events: returnToQueue(lease, returning, view.queued(returning.hostId, returning.key)).events, result: undefined };
}

/** Completed or given up: the lease ends, the entry is not queued again. Nothing for an unknown claim. */
export function decideRelease(view: QueueView, claimId: string): QueueDecision<void> {
  return { events: view.lease(claimId) ? [{ type: 'lease-ended', claimId }] : [], result: undefined };
}
