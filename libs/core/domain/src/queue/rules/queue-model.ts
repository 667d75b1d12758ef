import { Map as PersistentMap, OrderedMap } from 'immutable';
import type { Priority } from '../priority';
import { emptyHostQueueCounts, type HostQueueCounts } from '../queue-entry';
import type { QueueChange, QueueView, QueuedEntry, Lease } from './queue-changes';
import { assertNever } from '../../shared/assert-never';

/** An entry with its place among entries due at the same time (first queued, first served). */
interface Placed<T> {
  readonly value: T;
  readonly seq: number;
}

/**
 * The queue's state as a value: what `evolveQueue` folds events into and the
 * decisions read (through `queueView`). The memory store keeps the same state
 * in mutable indexes for speed; the contract suite checks both stores against
 * this model. Persistent maps (`immutable`) keep a step from copying the
 * whole state (it is the reference, not the fast path: reads filter and sort).
 */
export interface QueueModel {
  /** host → key → entry */
  readonly queued: PersistentMap<number, PersistentMap<string, Placed<QueuedEntry>>>;
  /** claimId → lease, in the order taken */
  readonly leases: OrderedMap<string, Placed<Lease>>;
  /** host → pause deadline (epoch ms) */
  readonly pauses: PersistentMap<number, number>;
  readonly lastServedHost: number | undefined;
  readonly nextSeq: number;
}

export const emptyQueueModel = (): QueueModel => ({
  queued: PersistentMap(),
  leases: OrderedMap(),
  pauses: PersistentMap(),
  lastServedHost: undefined,
  nextSeq: 0,
});

function place(state: QueueModel, entry: QueuedEntry, seq: number): QueueModel['queued'] {
  return state.queued.update(entry.hostId, PersistentMap(), (host) => host.set(entry.key, { value: entry, seq }));
}

/** The queued map with a host's entries changed by `change`; a host left without entries leaves. */
function withHost(queued: QueueModel['queued'], hostId: number, change: (host: PersistentMap<string, Placed<QueuedEntry>>) => PersistentMap<string, Placed<QueuedEntry>>): QueueModel['queued'] {
  const host = queued.get(hostId);
  if (!host) return queued;
  const changed = change(host);
  return changed.size === 0 ? queued.delete(hostId) : queued.set(hostId, changed);
}

/** The state after one event; `state` is left as it was. */
export function evolveQueue(state: QueueModel, event: QueueChange): QueueModel {
  switch (event.type) {
    case 'entry-queued':
      return { ...state, queued: place(state, event.entry, state.nextSeq), nextSeq: state.nextSeq + 1 };
    case 'entry-replaced': {
      const seq = state.queued.get(event.entry.hostId)?.get(event.entry.key)?.seq ?? state.nextSeq;
      return { ...state, queued: place(state, event.entry, seq) };
    }
    case 'entry-removed':
      return { ...state, queued: withHost(state.queued, event.hostId, (host) => host.delete(event.key)) };
    case 'queues-purged':
      return { ...state, queued: withHost(state.queued, event.hostId, (host) => host.filterNot(({ value }) => event.priorities.includes(value.priority))) };
    case 'host-paused':
      return { ...state, pauses: state.pauses.set(event.hostId, event.expiresAt) };
    case 'pause-lifted':
      return { ...state, pauses: state.pauses.delete(event.hostId) };
    case 'entry-leased': {
      const { entry } = event.lease;
      const seq = state.queued.get(entry.hostId)?.get(entry.key)?.seq ?? state.nextSeq;
      const queued = withHost(state.queued, entry.hostId, (host) => host.delete(entry.key));
      return { ...state, queued, leases: state.leases.set(event.lease.claimId, { value: event.lease, seq }), lastServedHost: entry.hostId };
    }
    case 'lease-ended':
      return { ...state, leases: state.leases.delete(event.claimId) };
    case 'lease-returned': {
      const seq = state.leases.get(event.claimId)?.seq ?? state.nextSeq;
      return { ...state, queued: place(state, event.entry, seq), leases: state.leases.delete(event.claimId) };
    }
    default:
      return assertNever(event);
  }
}

export function evolveQueueAll(state: QueueModel, events: readonly QueueChange[]): QueueModel {
  return events.reduce(evolveQueue, state);
}

const byDueThenSeq = (a: Placed<QueuedEntry>, b: Placed<QueuedEntry>): number => a.value.dueAt - b.value.dueAt || a.seq - b.seq;

/** The model read by the decisions. */
export function queueView(state: QueueModel): QueueView {
  const ofHost = (hostId: number, priority: Priority) => [...(state.queued.get(hostId)?.values() ?? [])].filter(({ value }) => value.priority === priority);
  return {
    queued: (hostId, key) => state.queued.get(hostId)?.get(key)?.value,
    queuedCount: (hostId, priority) => ofHost(hostId, priority).length,
    hostsWithEntries: () => state.queued.keys(),
    firstDue: (hostId, priority, now, limit) =>
      ofHost(hostId, priority)
        .filter(({ value }) => value.dueAt <= now)
        .sort(byDueThenSeq)
        .slice(0, limit)
        .map(({ value }) => value),
    lease: (claimId) => state.leases.get(claimId)?.value,
    leases: () => [...state.leases.values()].map(({ value }) => value),
    pauses: () => state.pauses.entries(),
    pausedUntil: (hostId) => state.pauses.get(hostId),
    lastServedHost: state.lastServedHost,
  };
}

/** `{total, due_now}` per priority of one host. */
export function modelCounts(state: QueueModel, hostId: number, now: number): HostQueueCounts {
  const counts = emptyHostQueueCounts();
  for (const { value } of state.queued.get(hostId)?.values() ?? []) {
    const ofPriority = counts[value.priority];
    counts[value.priority] = { total: ofPriority.total + 1, due_now: ofPriority.due_now + (value.dueAt <= now ? 1 : 0) };
  }
  return counts;
}
