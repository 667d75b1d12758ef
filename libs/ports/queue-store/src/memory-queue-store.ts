import { randomUUID } from 'node:crypto';
import {
  bucketInWindow,
  completionBucket,
  completionsInWindow,
  noRecentCompletions,
  decideClaim,
  decideEnqueue,
  decideLeaseExpiry,
  decidePause,
  decidePausedHosts,
  decidePurge,
  decideRelease,
  decideResume,
  decideRetry,
  decideSettle,
  emptyHostQueueCounts,
  PRIORITIES,
  QueueState,
  queueEntryKey,
  reached,
  returnToQueue,
  type HostQueueCounts,
  type Priority,
  type QueueDecision,
  type QueuedEntry,
  type RecentCompletions,
} from '@bpc/domain';
import { silentLog, type LogSink } from '@bpc/support';
import { DEFAULT_RESULT_TTL_MS, ProjectionLedger, type RecordedResult } from '@bpc/projection-state';
import { assertAttemptsMade, assertClaimRequest, assertEnqueueRequest, assertFiniteTime, assertHostId, assertPriorities } from './queue-call-checks';
import type { ClaimRequest, ClaimedEntry, ClaimedKey, EnqueueRequest, EnqueueResult, ProjectionPosition, QueueStore, StoreResult } from './queue-store.port';

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

/** One queued entry, as plain JSON (its key follows from URL and dimension). */
export type SnapshotEntry = Omit<QueuedEntry, 'key'>;

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

function toSnapshotEntry(entry: QueuedEntry): SnapshotEntry {
  const { hostId, url, dimensionId, mode, priority, dueAt, entryId, trigger, attempt } = entry;
  return { hostId, url, dimensionId, ...(mode ? { mode } : {}), priority, dueAt, entryId, ...(trigger ? { trigger } : {}), attempt };
}

const fromSnapshotEntry = (entry: SnapshotEntry): QueuedEntry => ({ ...entry, key: queueEntryKey(entry.dimensionId, entry.url) });

/**
 * Queue state in process memory, for standalone mode: the app rebuilds it by
 * replaying the event log (optionally from a `snapshot()`). Each method checks
 * its input, asks the domain's queue rules (`decide*`) and folds the events
 * they answer into the domain's `QueueState`, the same fold the contract
 * suite's model runs. Every method runs synchronously inside its
 * promise, so each one is atomic with respect to the others.
 */
export class MemoryQueueStore implements QueueStore {
  readonly rebuiltOnStart = true;
  private readonly state = new QueueState();
  private readonly ledger: ProjectionLedger;
  private readonly clock: () => number;
  private readonly log: LogSink;
  /** `host|priority` → completion bucket start → count; buckets out of the window are dropped on the way. */
  private readonly completions = new Map<string, Map<number, number>>();
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
    const { state } = this;
    return {
      version: QUEUE_STORE_SNAPSHOT_VERSION,
      entries: [...state.queuedEntries()].map(toSnapshotEntry),
      claimed: [...state.leases()].map((lease) => toSnapshotEntry(lease.entry)),
      pauses: [...state.pauses()].map(([hostId, expiresAt]) => ({ hostId, expiresAt })),
      ...this.ledger.state(this.clock()),
      ...(state.lastServedHost === undefined ? {} : { lastServedHost: state.lastServedHost }),
    };
  }

  async enqueue(request: EnqueueRequest, position?: ProjectionPosition): Promise<StoreResult<EnqueueResult>> {
    this.assertOpen();
    assertEnqueueRequest(request);
    return this.positioned(position, () => this.apply(decideEnqueue(this.state, request)));
  }

  async purge(hostId: number, priorities: readonly Priority[], position?: ProjectionPosition): Promise<StoreResult<number>> {
    this.assertOpen();
    assertHostId(hostId);
    assertPriorities(priorities);
    return this.positioned(position, () => this.apply(decidePurge(this.state, hostId, priorities)));
  }

  async pause(hostId: number, expiresAt: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    this.assertOpen();
    assertHostId(hostId);
    assertFiniteTime('expiresAt', expiresAt);
    return this.positioned(position, () => this.apply(decidePause(hostId, expiresAt)));
  }

  async settle(hostId: number, url: string, dimensionId: number, entryId: string, position?: ProjectionPosition): Promise<StoreResult<boolean>> {
    this.assertOpen();
    assertHostId(hostId);
    return this.positioned(position, () => this.apply(decideSettle(this.state, hostId, queueEntryKey(dimensionId, url), entryId)));
  }

  async resume(hostId: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    this.assertOpen();
    assertHostId(hostId);
    return this.positioned(position, () => this.apply(decideResume(hostId)));
  }

  async pausedHosts(now: number): Promise<ReadonlyMap<number, number>> {
    assertFiniteTime('now', now);
    this.assertOpen();
    return this.apply(decidePausedHosts(this.state, now));
  }

  async counts(now: number, hostIds: readonly number[] = []): Promise<ReadonlyMap<number, HostQueueCounts>> {
    assertFiniteTime('now', now);
    hostIds.forEach(assertHostId);
    this.assertOpen();
    const counts = this.state.counts(now);
    for (const hostId of hostIds) if (!counts.has(hostId)) counts.set(hostId, emptyHostQueueCounts());
    return counts;
  }

  /** Expired leases go back to their queues first (`decideLeaseExpiry`), then the claim takes its entries (`decideClaim`). */
  async claim(request: ClaimRequest): Promise<ClaimedEntry[]> {
    this.assertOpen();
    assertClaimRequest(request);
    const requeued = this.apply(decideLeaseExpiry(this.state, request.now));
    if (requeued > 0) this.log.warn({ requeued }, 'queue claim leases expired; entries returned to their queues');
    return this.apply(decideClaim(this.state, request, randomUUID));
  }

  async complete(entry: ClaimedEntry, now = this.clock()): Promise<void> {
    this.assertOpen();
    this.release(entry, now);
  }

  async retryLater(entry: ClaimedEntry, dueAt: number, attemptsMade = 1): Promise<void> {
    this.assertOpen();
    assertFiniteTime('dueAt', dueAt);
    assertAttemptsMade(attemptsMade);
    this.apply(decideRetry(this.state, entry.claimId, dueAt, attemptsMade));
  }

  async giveUp(entry: ClaimedEntry, now = this.clock()): Promise<void> {
    this.assertOpen();
    this.release(entry, now);
  }

  async recentCompletions(now: number, hostIds: readonly number[]): Promise<ReadonlyMap<number, RecentCompletions>> {
    assertFiniteTime('now', now);
    hostIds.forEach(assertHostId);
    this.assertOpen();
    const recent = new Map<number, RecentCompletions>();
    for (const hostId of hostIds) {
      const counts = noRecentCompletions();
      for (const priority of PRIORITIES) counts[priority] = completionsInWindow(this.completions.get(`${hostId}|${priority}`) ?? [], now);
      recent.set(hostId, counts);
    }
    return recent;
  }

  async claimedKeys(hostId: number, now: number): Promise<readonly ClaimedKey[]> {
    assertHostId(hostId);
    assertFiniteTime('now', now);
    this.assertOpen();
    const keys: ClaimedKey[] = [];
    for (const { entry, leaseUntil } of this.state.leases()) if (entry.hostId === hostId && !reached(leaseUntil, now)) keys.push({ url: entry.url, dimensionId: entry.dimensionId });
    return keys;
  }

  /** Completed or given up: the lease ends and, when it was still held, counts in its host's recent completions. */
  private release(entry: ClaimedEntry, now: number): void {
    assertFiniteTime('now', now);
    const lease = this.state.lease(entry.claimId);
    this.apply(decideRelease(this.state, entry.claimId));
    if (!lease) return;
    const key = `${lease.entry.hostId}|${lease.entry.priority}`;
    let buckets = this.completions.get(key);
    if (!buckets) this.completions.set(key, (buckets = new Map()));
    const bucket = completionBucket(now);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
    for (const start of buckets.keys()) if (!bucketInWindow(start, now)) buckets.delete(start);
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

  private apply<T>(decision: QueueDecision<T>): T {
    this.state.evolveAll(decision.events);
    return decision.result;
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

  private load(snapshot: QueueStoreSnapshot): void {
    this.state.evolve({ type: 'entries-queued', entries: snapshot.entries.map(fromSnapshotEntry) });
    // Claims held before the restart come back as their leases would: merged into an entry queued since.
    for (const claimed of snapshot.claimed) {
      const entry = fromSnapshotEntry(claimed);
      this.state.evolveAll(returnToQueue({ entry, claimId: '', leaseUntil: 0 }, entry, this.state.queued(entry.hostId, entry.key)).events);
    }
    for (const { hostId, expiresAt } of snapshot.pauses) this.state.evolve({ type: 'host-paused', hostId, expiresAt });
    this.ledger.restore(snapshot, this.clock());
    this.state.lastServedHost = snapshot.lastServedHost;
  }
}
