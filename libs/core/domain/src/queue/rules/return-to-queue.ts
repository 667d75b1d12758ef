import { mergeEntry, withPlacement } from './entry-placement';
import type { Lease, QueueChange, QueuedEntry } from './queue-changes';

/**
 * A leased entry goes back to its queue as `returning`. When a newer request
 * queued the same key meanwhile, that queued entry survives (its id and
 * attempt count: the newer request earns a fresh set of attempts) with the
 * higher priority and the earlier due time of the two (`mergeEntry`).
 * Answers the events and the entry queued after them.
 */
export function returnToQueue(lease: Lease, returning: QueuedEntry, queued: QueuedEntry | undefined): { events: QueueChange[]; entry: QueuedEntry } {
  if (!queued) return { events: [{ type: 'lease-returned', claimId: lease.claimId, entry: returning }], entry: returning };
  const entry = withPlacement(queued, mergeEntry(returning, queued));
  return { events: [{ type: 'lease-ended', claimId: lease.claimId }, { type: 'entry-replaced', entry }], entry };
}
