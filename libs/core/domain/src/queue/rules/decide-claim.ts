import { PRIORITIES } from '../priority';
import { pausedAt } from './entry-placement';
import { reached } from './queue-rule-table';
import type { ClaimedEntry, ClaimRequest } from './queue-commands';
import type { QueueDecision, QueueChange, QueueView, QueuedEntry } from './queue-changes';
import { returnToQueue } from './return-to-queue';

/**
 * Leases ending at or before `now` go back to their queues (same priority,
 * original due time, same attempt count), in the order they were taken.
 * Answers how many went back. Runs before every claim.
 */
export function decideLeaseExpiry(view: QueueView, now: number): QueueDecision<number> {
  const events: QueueChange[] = [];
  // Two expired leases may hold the same key: the second merges into the first's return.
  const returned = new Map<string, QueuedEntry>();
  let expired = 0;
  for (const lease of view.leases()) {
    if (!reached(lease.leaseUntil, now)) continue;
    expired++;
    const at = `${lease.entry.hostId} ${lease.entry.key}`;
    const back = returnToQueue(lease, lease.entry, returned.get(at) ?? view.queued(lease.entry.hostId, lease.entry.key));
    events.push(...back.events);
    returned.set(at, back.entry);
  }
  return { events, result: expired };
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
export function roundRobin<T>(lists: readonly (readonly T[])[], limit: number): T[] {
  const picked: T[] = [];
  for (let round = 0; picked.length < limit; round++) {
    let any = false;
    for (let list = 0; list < lists.length && picked.length < limit; list++) {
      if (round < lists[list].length) {
        picked.push(lists[list][round]);
        any = true;
      }
    }
    if (!any) break;
  }
  return picked;
}

/**
 * Up to `limit` entries due at `now` from hosts not paused at `now`: high
 * (across hosts) before normal before autorecache; within a priority one
 * entry per host per round, earliest due first, hosts in id order starting
 * after the host served last. Each is leased until `now + leaseMs` under an
 * id from `newClaimId`. Expired leases must have been returned first
 * (`decideLeaseExpiry`).
 */
export function decideClaim(view: QueueView, request: ClaimRequest, newClaimId: () => string): QueueDecision<ClaimedEntry[]> {
  const eligible = [...view.hostsWithEntries()].filter((hostId) => !pausedAt(view.pausedUntil(hostId), request.now)).sort((a, b) => a - b);
  const order = rotateAfter(eligible, view.lastServedHost);
  const leaseUntil = request.now + request.leaseMs;
  const events: QueueChange[] = [];
  const claimed: ClaimedEntry[] = [];
  for (const priority of PRIORITIES) {
    const remaining = request.limit - claimed.length;
    if (remaining <= 0) break;
    const candidates = order.map((hostId) => view.firstDue(hostId, priority, request.now, remaining));
    for (const entry of roundRobin(candidates, remaining)) {
      const claimId = newClaimId();
      events.push({ type: 'entry-leased', lease: { entry, claimId, leaseUntil } });
      const { hostId, url, dimensionId, mode, entryId, trigger, attempt } = entry;
      claimed.push({ hostId, url, dimensionId, priority, ...(mode ? { mode } : {}), entryId, ...(trigger ? { trigger } : {}), attempt, claimId, leaseUntil });
    }
  }
  return { events, result: claimed };
}
