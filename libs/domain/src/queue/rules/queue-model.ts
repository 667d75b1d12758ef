import { Map as PersistentMap, OrderedMap } from 'immutable';
import { PRIORITIES, type Priority } from '../priority';
import type { QueueEvent, QueueView, QueuedEntry, Lease } from './queue-events';
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
 * this model. Persistent maps (`immutable`) keep each step O(log n) instead
 * of a copy of the whole state.
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

function unqueue(queued: QueueModel['queued'], hostId: number, drop: (entry: QueuedEntry, key: string) => boolean): QueueModel['queued'] {
  const host = queued.get(hostId)?.filterNot(({ value }, key) => drop(value, key));
  return !host || host.size === 0 ? queued.delete(hostId) : queued.set(hostId, host);
}

/** The state after one event; `state` is left as it was. */
export function evolveQueue(state: QueueModel, event: QueueEvent): QueueModel {
  switch (event.type) {
    case 'entry-queued':
      return { ...state, queued: place(state, event.entry, state.nextSeq), nextSeq: state.nextSeq + 1 };
    case 'entry-replaced': {
      const seq = state.queued.get(event.entry.hostId)?.get(event.entry.key)?.seq ?? state.nextSeq;
      return { ...state, queued: place(state, event.entry, seq) };
    }
    case 'entry-removed':
      return { ...state, queued: unqueue(state.queued, event.hostId, (_, key) => key === event.key) };
    case 'queues-purged':
      return { ...state, queued: unqueue(state.queued, event.hostId, (entry) => event.priorities.includes(entry.priority)) };
    case 'host-paused':
      return { ...state, pauses: state.pauses.set(event.hostId, event.expiresAt) };
    case 'pause-lifted':
      return { ...state, pauses: state.pauses.delete(event.hostId) };
    case 'entry-leased': {
      const { entry } = event.lease;
      const seq = state.queued.get(entry.hostId)?.get(entry.key)?.seq ?? state.nextSeq;
      const queued = unqueue(state.queued, entry.hostId, (_, key) => key === entry.key);
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

export function evolveQueueAll(state: QueueModel, events: readonly QueueEvent[]): QueueModel {
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
export function modelCounts(state: QueueModel, hostId: number, now: number): Record<Priority, { total: number; due_now: number }> {
  const entries = [...(state.queued.get(hostId)?.values() ?? [])].map(({ value }) => value);
  const counts = {} as Record<Priority, { total: number; due_now: number }>;
  for (const priority of PRIORITIES) {
    const ofPriority = entries.filter((e) => e.priority === priority);
    counts[priority] = { total: ofPriority.length, due_now: ofPriority.filter((e) => e.dueAt <= now).length };
  }
  return counts;
}
