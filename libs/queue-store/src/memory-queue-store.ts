import { randomUUID } from 'node:crypto';
import {
  PRIORITIES,
  emptyHostQueueCounts,
  queueEntryKey,
  silentLog,
  type HostQueueCounts,
  type LogSink,
  type Priority,
  type RecacheMode,
} from '@bpc/domain';
import { ProjectionLedger } from '@bpc/projection-state';
import {
  assertClaimRequest,
  assertEnqueueRequest,
  assertFiniteTime,
  assertHostId,
  assertAttemptsMade,
  assertPriorities,
  distinctItems,
  distinctPriorities,
  mergeEntry,
  rotateAfter,
  roundRobin,
  type EntryPlacement,
} from './queue-entry-rules';
import type {
  ClaimRequest,
  ClaimedEntry,
  EnqueueRequest,
  EnqueueResult,
  ProjectionPosition,
  QueueStore,
  StoreResult,
} from './queue-store.port';
import { DEFAULT_RESULT_TTL_MS, type RecordedResult } from '@bpc/projection-state';
import { SortedDueList, type DueItem } from './sorted-due-list';

const DEFAULT_MAX_RESULTS = 100_000;
export const QUEUE_STORE_SNAPSHOT_VERSION = 1;

export interface MemoryQueueStoreOptions {
  readonly log?: LogSink;
  /** How long results of positioned mutations are kept (default 6 hours; the port promises at least 1 hour). */
  readonly resultTtlMs?: number;
  /** Upper bound on kept results; the oldest go first beyond it (default 100,000). */
  readonly maxResults?: number;
  /** Clock for result expiry only; queue decisions use the `now` given by the caller. */
  readonly clock?: () => number;
}

/** One queued entry, as plain JSON. */
export interface SnapshotEntry {
  readonly hostId: number;
  readonly url: string;
  readonly dimensionId: number;
  readonly mode?: RecacheMode;
  readonly priority: Priority;
  readonly dueAt: number;
  readonly entryId: string;
  readonly attempt: number;
}

/**
 * The memory store's whole state as plain JSON, so a standalone start can
 * load it and replay only the log tail. Claims do not survive a restart (the
 * scheduler holding them is gone): they are listed in `claimed` and go back
 * into their queues on load, as an expired lease would.
 */
export interface QueueStoreSnapshot {
  readonly version: typeof QUEUE_STORE_SNAPSHOT_VERSION;
  /** Queued entries; within a host and priority, in drain order. */
  readonly entries: readonly SnapshotEntry[];
  readonly claimed: readonly SnapshotEntry[];
  readonly pauses: readonly { readonly hostId: number; readonly expiresAt: number }[];
  readonly checkpoints: readonly { readonly stream: string; readonly offset: string }[];
  readonly results: readonly RecordedResult[];
  /** Host served last by `claim`, where the next claim's rotation starts. */
  readonly lastServedHost?: number;
}

interface MemoryEntry extends DueItem {
  readonly hostId: number;
  readonly key: string;
  readonly url: string;
  readonly dimensionId: number;
  readonly mode?: RecacheMode;
  readonly priority: Priority;
  readonly entryId: string;
  readonly attempt: number;
}

interface MemoryClaim {
  /** The entry as it was queued when claimed (original due time kept for its place in line). */
  readonly entry: MemoryEntry;
  readonly claimId: string;
  readonly leaseUntil: number;
}

/** One host's queued entries: the key index and one due-ordered list per priority. */
class HostQueues {
  readonly entries = new Map<string, MemoryEntry>();
  readonly lists: Record<Priority, SortedDueList<MemoryEntry>> = {
    high: new SortedDueList(),
    normal: new SortedDueList(),
    autorecache: new SortedDueList(),
  };

  add(entry: MemoryEntry): void {
    this.entries.set(entry.key, entry);
    this.lists[entry.priority].insert(entry);
  }

  delete(entry: MemoryEntry): void {
    this.entries.delete(entry.key);
    this.lists[entry.priority].remove(entry);
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

function withPlacement(entry: MemoryEntry, placement: EntryPlacement): MemoryEntry {
  const { mode: _previous, ...rest } = entry;
  return { ...rest, priority: placement.priority, dueAt: placement.dueAt, ...(placement.mode ? { mode: placement.mode } : {}) };
}

function toSnapshotEntry(entry: MemoryEntry): SnapshotEntry {
  const { hostId, url, dimensionId, mode, priority, dueAt, entryId, attempt } = entry;
  return { hostId, url, dimensionId, ...(mode ? { mode } : {}), priority, dueAt, entryId, attempt };
}

/**
 * Queue state in process memory, for standalone mode: the app rebuilds it by
 * replaying the event log (optionally from a `snapshot()`). Every method runs
 * synchronously inside its promise, so each one is atomic with respect to the
 * others; a method validates its input before changing anything.
 */
export class MemoryQueueStore implements QueueStore {
  private readonly hosts = new Map<number, HostQueues>();
  private readonly pauses = new Map<number, number>();
  private readonly claims = new Map<string, MemoryClaim>();
  private readonly ledger: ProjectionLedger;
  private readonly clock: () => number;
  private readonly log: LogSink;
  private lastServedHost: number | undefined;
  private seq = 0;
  private closed = false;

  constructor(options: MemoryQueueStoreOptions = {}) {
    this.log = options.log ?? silentLog;
    this.clock = options.clock ?? Date.now;
    this.ledger = new ProjectionLedger(options.resultTtlMs ?? DEFAULT_RESULT_TTL_MS, options.maxResults ?? DEFAULT_MAX_RESULTS);
  }

  static fromSnapshot(snapshot: QueueStoreSnapshot, options: MemoryQueueStoreOptions = {}): MemoryQueueStore {
    if (snapshot.version !== QUEUE_STORE_SNAPSHOT_VERSION) {
      throw new Error(`unsupported queue store snapshot version ${String(snapshot.version)} (expected ${QUEUE_STORE_SNAPSHOT_VERSION})`);
    }
    const store = new MemoryQueueStore(options);
    store.load(snapshot);
    store.log.info(
      { entries: snapshot.entries.length, claimed: snapshot.claimed.length, checkpoints: snapshot.checkpoints.length },
      'queue store restored from snapshot',
    );
    return store;
  }

  snapshot(): QueueStoreSnapshot {
    const entries: SnapshotEntry[] = [];
    for (const host of this.hosts.values()) {
      for (const priority of PRIORITIES) for (const entry of host.lists[priority].values()) entries.push(toSnapshotEntry(entry));
    }
    return {
      version: QUEUE_STORE_SNAPSHOT_VERSION,
      entries,
      claimed: [...this.claims.values()].map((c) => toSnapshotEntry(c.entry)),
      pauses: [...this.pauses].map(([hostId, expiresAt]) => ({ hostId, expiresAt })),
      ...this.ledger.state(this.clock()),
      ...(this.lastServedHost === undefined ? {} : { lastServedHost: this.lastServedHost }),
    };
  }

  async enqueue(request: EnqueueRequest, position?: ProjectionPosition): Promise<StoreResult<EnqueueResult>> {
    this.assertOpen();
    assertEnqueueRequest(request);
    return this.positioned(position, () => this.applyEnqueue(request));
  }

  async purge(hostId: number, priorities: readonly Priority[], position?: ProjectionPosition): Promise<StoreResult<number>> {
    this.assertOpen();
    assertHostId(hostId);
    assertPriorities(priorities);
    return this.positioned(position, () => this.applyPurge(hostId, distinctPriorities(priorities)));
  }

  async pause(hostId: number, expiresAt: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    this.assertOpen();
    assertHostId(hostId);
    assertFiniteTime('expiresAt', expiresAt);
    return this.positioned(position, () => void this.pauses.set(hostId, expiresAt));
  }

  async settle(hostId: number, url: string, dimensionId: number, entryId: string, position?: ProjectionPosition): Promise<StoreResult<boolean>> {
    this.assertOpen();
    assertHostId(hostId);
    return this.positioned(position, () => {
      const host = this.hosts.get(hostId);
      const entry = host?.entries.get(queueEntryKey(dimensionId, url));
      if (!host || !entry || entry.entryId !== entryId) return false;
      host.delete(entry);
      this.dropIfEmpty(hostId, host);
      return true;
    });
  }

  async resume(hostId: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    this.assertOpen();
    assertHostId(hostId);
    return this.positioned(position, () => void this.pauses.delete(hostId));
  }

  async pausedHosts(now: number): Promise<ReadonlyMap<number, number>> {
    assertFiniteTime('now', now);
    this.assertOpen();
    const paused = new Map<number, number>();
    for (const [hostId, expiresAt] of this.pauses) {
      if (expiresAt > now) paused.set(hostId, expiresAt);
      else this.pauses.delete(hostId);
    }
    return paused;
  }

  async counts(now: number, hostIds: readonly number[] = []): Promise<ReadonlyMap<number, HostQueueCounts>> {
    assertFiniteTime('now', now);
    hostIds.forEach(assertHostId);
    this.assertOpen();
    const counts = new Map<number, HostQueueCounts>();
    for (const [hostId, host] of this.hosts) counts.set(hostId, host.counts(now));
    for (const hostId of hostIds) if (!counts.has(hostId)) counts.set(hostId, emptyHostQueueCounts());
    return counts;
  }

  /**
   * Expired leases go back to their queues first, then due entries of hosts
   * not paused at `now` are taken priority by priority, round-robin across
   * hosts (rotation starting after the host served last by the previous
   * claim), and leased until `now + leaseMs`.
   */
  async claim(request: ClaimRequest): Promise<ClaimedEntry[]> {
    this.assertOpen();
    assertClaimRequest(request);
    this.requeueExpired(request.now);
    const order = rotateAfter(this.eligibleHosts(request.now), this.lastServedHost);
    const claimed: ClaimedEntry[] = [];
    for (const priority of PRIORITIES) {
      const remaining = request.limit - claimed.length;
      if (remaining <= 0) break;
      // A host emptied by an earlier priority of this claim has left `hosts`.
      const candidates = order.map((hostId) => this.hosts.get(hostId)?.lists[priority].firstDue(request.now, remaining) ?? []);
      for (const { item } of roundRobin(candidates, remaining)) claimed.push(this.lease(item, request));
    }
    return claimed;
  }

  async complete(entry: ClaimedEntry): Promise<void> {
    this.assertOpen();
    this.claims.delete(entry.claimId);
  }

  /**
   * Back to the queue with one more attempt. When a newer request queued the
   * same key meanwhile, that queued entry survives (its id and attempt count:
   * the newer request earns a fresh set of attempts) with the higher priority
   * and the earlier due time of the two.
   */
  async retryLater(entry: ClaimedEntry, dueAt: number, attemptsMade = 1): Promise<void> {
    this.assertOpen();
    assertFiniteTime('dueAt', dueAt);
    assertAttemptsMade(attemptsMade);
    const claim = this.claims.get(entry.claimId);
    if (!claim) return;
    this.claims.delete(entry.claimId);
    this.requeue({ ...claim.entry, dueAt, attempt: claim.entry.attempt + attemptsMade });
  }

  async giveUp(entry: ClaimedEntry): Promise<void> {
    this.assertOpen();
    this.claims.delete(entry.claimId);
  }

  async resultOf(eventId: string): Promise<unknown | undefined> {
    this.assertOpen();
    return this.ledger.resultOf(eventId, this.clock());
  }

  async nextOffset(stream: string): Promise<string | undefined> {
    this.assertOpen();
    return this.ledger.nextOffset(stream);
  }

  async check(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('memory queue store is closed');
  }

  private positioned<T>(position: ProjectionPosition | undefined, apply: () => T): StoreResult<T> {
    if (!position) return { applied: true, value: apply() };
    const now = this.clock();
    const replayed = this.ledger.replayed(position, now);
    if (replayed) return replayed as StoreResult<T>;
    const value = apply();
    this.ledger.record(position, value, now);
    return { applied: true, value };
  }

  private applyEnqueue(request: EnqueueRequest): EnqueueResult {
    const distinct = distinctItems(request.items);
    if (distinct.size === 0) return Object.freeze({ enqueued: 0, created: 0, promoted: 0 });
    const host = this.hostQueues(request.hostId);
    let created = 0;
    let promoted = 0;
    for (const [key, item] of distinct) {
      const existing = host.entries.get(key);
      if (!existing) {
        created++;
        host.add({
          hostId: request.hostId,
          key,
          url: item.url,
          dimensionId: item.dimensionId,
          ...(item.mode ? { mode: item.mode } : {}),
          priority: request.priority,
          dueAt: request.dueAt,
          entryId: request.entryId,
          attempt: 0,
          seq: this.seq++,
        });
        continue;
      }
      const merged = mergeEntry(existing, { priority: request.priority, dueAt: request.dueAt, ...(item.mode ? { mode: item.mode } : {}) });
      if (merged.priority !== existing.priority) promoted++;
      this.replace(host, existing, merged);
      // The entry now answers to the latest request that queued it (same seq: same place in its list).
      const current = host.entries.get(key)!;
      if (current.entryId !== request.entryId) {
        host.delete(current);
        host.add({ ...current, entryId: request.entryId });
      }
    }
    return Object.freeze({ enqueued: distinct.size, created, promoted });
  }

  private applyPurge(hostId: number, priorities: readonly Priority[]): number {
    const host = this.hosts.get(hostId);
    if (!host) return 0;
    let removed = 0;
    for (const priority of priorities) {
      const list = host.lists[priority];
      removed += list.size;
      for (const entry of list.values()) host.entries.delete(entry.key);
      list.clear();
    }
    this.dropIfEmpty(hostId, host);
    return removed;
  }

  private replace(host: HostQueues, existing: MemoryEntry, placement: EntryPlacement): void {
    if (placement.priority === existing.priority && placement.dueAt === existing.dueAt && placement.mode === existing.mode) return;
    host.delete(existing);
    host.add(withPlacement(existing, placement));
  }

  /** A claimed entry returns to its queue, merging with an entry a newer request queued meanwhile. */
  private requeue(returning: MemoryEntry): void {
    const host = this.hostQueues(returning.hostId);
    const queued = host.entries.get(returning.key);
    if (!queued) host.add(returning);
    else this.replace(host, queued, mergeEntry(returning, queued));
  }

  private requeueExpired(now: number): void {
    let requeued = 0;
    for (const [claimId, claim] of this.claims) {
      if (claim.leaseUntil > now) continue;
      this.claims.delete(claimId);
      this.requeue(claim.entry);
      requeued++;
    }
    if (requeued > 0) this.log.warn({ requeued }, 'queue claim leases expired; entries returned to their queues');
  }

  private eligibleHosts(now: number): number[] {
    const eligible: number[] = [];
    for (const hostId of this.hosts.keys()) {
      const pausedUntil = this.pauses.get(hostId);
      if (pausedUntil === undefined || pausedUntil <= now) eligible.push(hostId);
    }
    return eligible.sort((a, b) => a - b);
  }

  private lease(entry: MemoryEntry, request: ClaimRequest): ClaimedEntry {
    const host = this.hosts.get(entry.hostId)!;
    host.delete(entry);
    this.dropIfEmpty(entry.hostId, host);
    const claimId = randomUUID();
    const leaseUntil = request.now + request.leaseMs;
    this.claims.set(claimId, { entry, claimId, leaseUntil });
    this.lastServedHost = entry.hostId;
    const { hostId, url, dimensionId, mode, priority, entryId, attempt } = entry;
    return { hostId, url, dimensionId, priority, ...(mode ? { mode } : {}), entryId, attempt, claimId, leaseUntil };
  }

  private hostQueues(hostId: number): HostQueues {
    let host = this.hosts.get(hostId);
    if (!host) this.hosts.set(hostId, (host = new HostQueues()));
    return host;
  }

  private dropIfEmpty(hostId: number, host: HostQueues): void {
    if (host.entries.size === 0) this.hosts.delete(hostId);
  }

  private load(snapshot: QueueStoreSnapshot): void {
    const now = this.clock();
    for (const entry of snapshot.entries) this.hostQueues(entry.hostId).add(this.fromSnapshotEntry(entry));
    for (const entry of snapshot.claimed) this.requeue(this.fromSnapshotEntry(entry));
    for (const { hostId, expiresAt } of snapshot.pauses) this.pauses.set(hostId, expiresAt);
    this.ledger.restore(snapshot, now);
    this.lastServedHost = snapshot.lastServedHost;
  }

  private fromSnapshotEntry(entry: SnapshotEntry): MemoryEntry {
    return { ...entry, key: queueEntryKey(entry.dimensionId, entry.url), seq: this.seq++ };
  }
}
