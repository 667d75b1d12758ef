import { assertNever } from '../../shared/assert-never';
import { PRIORITIES, type Priority } from '../priority';
import { emptyHostQueueCounts, type HostQueueCounts } from '../queue-entry';
import type { Lease, QueueChange, QueueView, QueuedEntry } from './queue-changes';
import { SortedDueList } from './sorted-due-list';

/** One host's queued entries: the key index and one list per priority, in drain order (due time, then key). */
class HostQueues {
  readonly entries = new Map<string, QueuedEntry>();
  readonly lists: Record<Priority, SortedDueList<QueuedEntry>> = {
    high: new SortedDueList(),
    normal: new SortedDueList(),
    autorecache: new SortedDueList(),
  };

  add(entry: QueuedEntry): void {
    this.entries.set(entry.key, entry);
    this.lists[entry.priority].insert(entry);
  }

  /** New entries of one priority, placed together (see `SortedDueList.insertRun`). */
  addRun(entries: readonly QueuedEntry[], priority: Priority): void {
    for (const entry of entries) this.entries.set(entry.key, entry);
    this.lists[priority].insertRun(entries);
  }

  delete(entry: QueuedEntry): void {
    this.entries.delete(entry.key);
    this.lists[entry.priority].remove(entry);
  }

  /** `next` in the place of `current`, which has its key, priority and due time. */
  swap(current: QueuedEntry, next: QueuedEntry): void {
    this.entries.set(next.key, next);
    this.lists[next.priority].replace(current, next);
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
  private readonly claims = new Map<string, Lease>();
  /** Host served last by a claim (an `entry-leased`); a store restoring a snapshot sets it. */
  lastServedHost: number | undefined;

  queued(hostId: number, key: string): QueuedEntry | undefined {
    return this.hosts.get(hostId)?.entries.get(key);
  }

  queuedCount(hostId: number, priority: Priority): number {
    return this.hosts.get(hostId)?.lists[priority].size ?? 0;
  }

  hostsWithEntries(): Iterable<number> {
    return this.hosts.keys();
  }

  firstDue(hostId: number, priority: Priority, now: number, limit: number): readonly QueuedEntry[] {
    return this.hosts.get(hostId)?.lists[priority].firstDue(now, limit) ?? [];
  }

  lease(claimId: string): Lease | undefined {
    return this.claims.get(claimId);
  }

  leases(): Iterable<Lease> {
    return this.claims.values();
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
      for (const priority of PRIORITIES) yield* host.lists[priority].values();
    }
  }

  evolveAll(events: readonly QueueChange[]): void {
    for (const event of events) this.evolve(event);
  }

  /** Applies one decided event. Each entry takes its place by due time, then key (`QUEUE_RULE_TABLE.dueTies`), however it came. */
  evolve(event: QueueChange): void {
    switch (event.type) {
      case 'entries-queued':
        return this.placeNew(event.entries);
      case 'entry-replaced':
        return this.replace(event.entry);
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
        this.remove(entry.hostId, entry.key);
        this.claims.set(event.lease.claimId, event.lease);
        this.lastServedHost = entry.hostId;
        return;
      }
      case 'lease-ended':
        return void this.claims.delete(event.claimId);
      case 'lease-returned':
        this.claims.delete(event.claimId);
        return this.place(event.entry);
      default:
        return assertNever(event);
    }
  }

  /** A replaced entry keeping its priority and due time keeps its place (its key is the same); otherwise it moves. */
  private replace(entry: QueuedEntry): void {
    const host = this.hosts.get(entry.hostId);
    const current = host?.entries.get(entry.key);
    if (host && current && current.priority === entry.priority && current.dueAt === entry.dueAt) return host.swap(current, entry);
    this.remove(entry.hostId, entry.key);
    this.place(entry);
  }

  private place(entry: QueuedEntry): void {
    this.hostOf(entry.hostId).add(entry);
  }

  /** New entries, a run at a time: consecutive ones of one host and priority (a request's, all of them) go into their list together. */
  private placeNew(entries: readonly QueuedEntry[]): void {
    for (let start = 0; start < entries.length; ) {
      const { hostId, priority } = entries[start];
      let end = start + 1;
      while (end < entries.length && entries[end].hostId === hostId && entries[end].priority === priority) end++;
      this.hostOf(hostId).addRun(start === 0 && end === entries.length ? entries : entries.slice(start, end), priority);
      start = end;
    }
  }

  private hostOf(hostId: number): HostQueues {
    let host = this.hosts.get(hostId);
    if (!host) this.hosts.set(hostId, (host = new HostQueues()));
    return host;
  }

  private remove(hostId: number, key: string): void {
    const host = this.hosts.get(hostId);
    const entry = host?.entries.get(key);
    if (!host || !entry) return;
    host.delete(entry);
    if (host.entries.size === 0) this.hosts.delete(hostId);
  }

  private purge(hostId: number, priorities: readonly Priority[]): void {
    const host = this.hosts.get(hostId);
    if (!host) return;
    for (const priority of priorities) {
      for (const chunk of host.lists[priority].clear()) for (const entry of chunk) host.entries.delete(entry.key);
    }
    if (host.entries.size === 0) this.hosts.delete(hostId);
  }
}
