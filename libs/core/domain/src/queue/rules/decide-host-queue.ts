import type { Priority } from '../priority';
import { distinctPriorities, pausedAt } from './entry-placement';
import type { QueueDecision, QueueView } from './queue-changes';

/** Removes the queued entries of the given priorities (each once; `[]` removes nothing); claimed entries stay leased. */
export function decidePurge(view: QueueView, hostId: number, priorities: readonly Priority[]): QueueDecision<number> {
  const distinct = distinctPriorities(priorities);
  const removed = distinct.reduce((sum, priority) => sum + view.queuedCount(hostId, priority), 0);
  return { events: removed > 0 ? [{ type: 'queues-purged', hostId, priorities: distinct }] : [], result: removed };
}

/** Removes the queued entry of a key only while it still answers to `entryId` (a newer request's entry stays). */
export function decideSettle(view: QueueView, hostId: number, key: string, entryId: string): QueueDecision<boolean> {
  if (view.queued(hostId, key)?.entryId !== entryId) return { events: [], result: false };
  return { events: [{ type: 'entry-removed', hostId, key }], result: true };
}

/** A new deadline replaces an earlier one. */
export function decidePause(hostId: number, expiresAt: number): QueueDecision<void> {
  return { events: [{ type: 'host-paused', hostId, expiresAt }], result: undefined };
}

export function decideResume(hostId: number): QueueDecision<void> {
  return { events: [{ type: 'pause-lifted', hostId }], result: undefined };
}

/** Hosts paused at `now`, with their deadline; pauses that ended are dropped. */
export function decidePausedHosts(view: QueueView, now: number): QueueDecision<Map<number, number>> {
  const paused = new Map<number, number>();
  const events: { type: 'pause-lifted'; hostId: number }[] = [];
  for (const [hostId, deadline] of view.pauses()) {
    if (pausedAt(deadline, now)) paused.set(hostId, deadline);
    else events.push({ type: 'pause-lifted', hostId });
  }
  return { events, result: paused };
}
