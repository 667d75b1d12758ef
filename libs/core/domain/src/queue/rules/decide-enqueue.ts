import type { EnqueueRequest, EnqueueResult } from './queue-commands';
import { distinctItems, mergeEntry, withPlacement } from './entry-placement';
import type { QueueDecision, QueueChange, QueueView, QueuedEntry } from './queue-changes';

/**
 * Queues each distinct item of a request: a new key becomes an entry; a
 * queued key merges with the request (`mergeEntry`: moved up, never down,
 * the earlier due time) and answers to this request from now on.
 */
export function decideEnqueue(view: QueueView, request: EnqueueRequest): QueueDecision<EnqueueResult> {
  const created: QueuedEntry[] = [];
  const replaced: QueueChange[] = [];
  let promoted = 0;
  const distinct = distinctItems(request.items);
  for (const [key, item] of distinct) {
    const existing = view.queued(request.hostId, key);
    if (!existing) {
      const { hostId, priority, dueAt, entryId } = request;
      created.push({ hostId, key, url: item.url, dimensionId: item.dimensionId, ...(item.mode ? { mode: item.mode } : {}), priority, dueAt, entryId, ...triggerOf(request), attempt: 0 });
      continue;
    }
    const placement = mergeEntry(existing, { priority: request.priority, dueAt: request.dueAt, ...(item.mode ? { mode: item.mode } : {}) });
    if (placement.priority !== existing.priority) promoted++;
    const { trigger: _previous, ...placed } = withPlacement(existing, placement);
    const entry = { ...placed, entryId: request.entryId, ...triggerOf(request) };
    if (!sameEntry(entry, existing)) replaced.push({ type: 'entry-replaced', entry });
  }
  // Keys are distinct within a request, so the new entries go first, as one run.
  const events: QueueChange[] = created.length > 0 ? [{ type: 'entries-queued', entries: created }, ...replaced] : replaced;
  return { events, result: Object.freeze({ enqueued: distinct.size, created: created.length, promoted }) };
}

/** The request's trigger as an entry field (absent when it has none). */
function triggerOf(request: EnqueueRequest): Pick<QueuedEntry, 'trigger'> {
  return request.trigger ? { trigger: request.trigger } : {};
}

function sameEntry(a: Pick<QueuedEntry, 'priority' | 'dueAt' | 'mode' | 'entryId' | 'trigger'>, b: typeof a): boolean {
  return a.priority === b.priority && a.dueAt === b.dueAt && a.mode === b.mode && a.entryId === b.entryId && a.trigger === b.trigger;
}
