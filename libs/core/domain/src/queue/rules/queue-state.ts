import { assertNever } from '../../shared/assert-never';
import { PRIORITIES, type Priority } from '../priority';
import { emptyHostQueueCounts, type HostQueueCounts } from '../queue-entry';
import type { Lease, QueueChange, QueueView, QueuedEntry } from './queue-changes';
import { SortedDueList, type DueItem } from './sorted-due-list';

/** A queued entry with its place among entries due at the same time. */
interface IndexedEntry extends DueItem {
  readonly entry: QueuedEntry;
}

/** One host's queued entries: the key index and one due-ordered list per priority. */
class HostQueues {
  readonly entries = new Map<string, IndexedEntry>();
  readonly lists: Record<Priority, SortedDueList<IndexedEntry>> = {
    high: new SortedDueList(),
    normal: new SortedDueList(),
    autorecache: new SortedDueList(),
  };

  add(indexed: IndexedEntry): void {
    this.entries.set(indexed.entry.key, indexed);
    this.lists[indexed.entry.priority].insert(indexed);
  }

  delete(indexed: IndexedEntry): void {
    this.entries.delete(indexed.entry.key);
    this.lists[indexed.entry.priority].remove(indexed);
  }

  counts(now: number): HostQueueCounts {
    const counts = emptyHostQueueCounts();
    for (const priority of PRIORITIES) {
      const list = this.lists[priority];
      counts[priority] = { total: list.size, due_now: list.countDue(now) };
    }
    return counts;
  }
}

/**
 * The queue's state, the one fold of its events (`evolve`) that the decisions
 * read (as a `QueueView`): the memory store keeps its queue in it, the rules'
 * specs build their givens with it, and the store contract suite drives it as
 * the model every store must answer like. It is mutable, per host a key index
 * and a due-ordered list per priority, because a persistent copy per event
 * would make a claim over 100k entries sort them all.
 */
export class QueueState implements QueueView {
  private readonly hosts = new Map<number, HostQueues>();
  private readonly pauseDeadlines = new Map<number, number>();
  private readonly claims = new Map<string, { readonly lease: Lease; readonly seq: number }>();
  private seq = 0;
  /** Host served last by a claim (an `entry-leased`); a store restoring a snapshot sets it. */
  lastServedHost: number | undefined;

  queued(hostId: number, key: string): QueuedEntry | undefined {
    return this.hosts.get(hostId)?.entries.get(key)?.entry;
  }

  queuedCount(hostId: number, priority: Priority): number {
    return this.hosts.get(hostId)?.lists[priority].size ?? 0;
  }

  hostsWithEntries(): Iterable<number> {
    return this.hosts.keys();
  }

  firstDue(hostId: number, priority: Priority, now: number, limit: number): readonly QueuedEntry[] {
    return this.hosts.get(hostId)?.lists[priority].firstDue(now, limit).map((indexed) => indexed.entry) ?? [];
  }

  lease(claimId: string): Lease | undefined {
    return this.claims.get(claimId)?.lease;
  }

  *leases(): Iterable<Lease> {
    for (const { lease } of this.claims.values()) yield lease;
  }

  pauses(): Iterable<readonly [number, number]> {
    return this.pauseDeadlines.entries();
  }

  pausedUntil(hostId: number): number | undefined {
    return this.pauseDeadlines.get(hostId);
  }

  counts(now: number): Map<number, HostQueueCounts> {
    const counts = new Map<number, HostQueueCounts>();
    for (const [hostId, host] of this.hosts) counts.set(hostId, host.counts(now));
    return counts;
  }

  /** Queued entries host by host, within a host and priority in drain order. */
  *queuedEntries(): IterableIterator<QueuedEntry> {
    for (const host of this.hosts.values()) {
      for (const priority of PRIORITIES) for (const indexed of host.lists[priority].values()) yield indexed.entry;
    }
  }

  evolveAll(events: readonly QueueChange[]): void {
    for (const event of events) this.evolve(event);
  }

  /** Applies one decided event; entries due at the same time keep first queued, first served order, and a replaced or returned entry keeps its place. */
  evolve(event: QueueChange): void {
    switch (event.type) {
      case 'entry-queued':
        return this.place(event.entry, this.seq++);
      case 'entry-replaced': {
        const current = this.remove(event.entry.hostId, event.entry.key);
        return this.place(event.entry, current?.seq ?? this.seq++);
      }
      case 'entry-removed':
        return void this.remove(event.hostId, event.key);
      case 'queues-purged':
        return this.purge(event.hostId, event.priorities);
      case 'host-paused':
        return void this.pauseDeadlines.set(event.hostId, event.expiresAt);
      case 'pause-lifted':
        return void this.pauseDeadlines.delete(event.hostId);
      case 'entry-leased': {
        const { entry } = event.lease;
        const current = this.remove(entry.hostId, entry.key);
        this.claims.set(event.lease.claimId, { lease: event.lease, seq: current?.seq ?? this.seq++ });
        this.lastServedHost = entry.hostId;
        return;
      }
      case 'lease-ended':
        return void this.claims.delete(event.claimId);
      case 'lease-returned': {
        const seq = this.claims.get(event.claimId)?.seq ?? this.seq++;
        this.claims.delete(event.claimId);
        return this.place(event.entry, seq);
      }
      default:
        return assertNever(event);
    }
  }

  private place(entry: QueuedEntry, seq: number): void {
    let host = this.hosts.get(entry.hostId);
    if (!host) this.hosts.set(entry.hostId, (host = new HostQueues()));
    host.add({ entry, dueAt: entry.dueAt, seq });
  }

  private remove(hostId: number, key: string): IndexedEntry | undefined {
    const host = this.hosts.get(hostId);
    const indexed = host?.entries.get(key);
    if (!host || !indexed) return undefined;
    host.delete(indexed);
    if (host.entries.size === 0) this.hosts.delete(hostId);
    return indexed;
  }

  private purge(hostId: number, priorities: readonly Priority[]): void {
    const host = this.hosts.get(hostId);
    if (!host) return;
    for (const priority of priorities) {
      const list = host.lists[priority];
      for (const indexed of list.values()) host.entries.delete(indexed.entry.key);
      list.clear();
    }
    if (host.entries.size === 0) this.hosts.delete(hostId);
  }
}
