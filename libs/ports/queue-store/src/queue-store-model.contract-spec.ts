import fc from 'fast-check';
import {
  PRIORITIES,
  RECACHE_MODES,
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
  completionBucket,
  completionsInWindow,
  noRecentCompletions,
  queueEntryKey,
  QueueState,
  type ClaimedEntry,
  type HostQueueCounts,
  type Priority,
  type QueueDecision,
  type QueueChange,
  type QueueItem,
} from '@bpc/domain';
import type { QueueStore } from './queue-store.port';

const T = 1_700_000_000_000;
const LEASE_MS = 2_000;
const HOSTS = [1, 2];

/** One generated call; times are offsets from the run's clock, claims are picked among those made so far. */
type Operation =
  | { readonly op: 'enqueue'; readonly hostId: number; readonly priority: Priority; readonly due: number; readonly items: readonly QueueItem[]; readonly sitemap: boolean }
  | { readonly op: 'purge'; readonly hostId: number; readonly priorities: readonly Priority[] }
  | { readonly op: 'settle'; readonly hostId: number; readonly item: QueueItem; readonly request: number }
  | { readonly op: 'pause'; readonly hostId: number; readonly until: number }
  | { readonly op: 'resume'; readonly hostId: number }
  | { readonly op: 'pausedHosts' }
  | { readonly op: 'counts' }
  | { readonly op: 'recentCompletions' }
  | { readonly op: 'claim'; readonly limit: number }
  | { readonly op: 'outcome'; readonly claim: number; readonly outcome: 'complete' | 'giveUp' | 'retryLater'; readonly due: number; readonly attemptsMade: number }
  | { readonly op: 'wait'; readonly ms: number };

const hostId = fc.constantFrom(...HOSTS);
const offset = fc.integer({ min: -3, max: 3 }).map((n) => n * 1_000);
const item: fc.Arbitrary<QueueItem> = fc.record(
  { url: fc.constantFrom('https://a.test/1', 'https://a.test/2|x', 'https://a.test/3'), dimensionId: fc.constantFrom(1, 2), mode: fc.constantFrom(...RECACHE_MODES) },
  { requiredKeys: ['url', 'dimensionId'] },
);

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('enqueue' as const), hostId, priority: fc.constantFrom(...PRIORITIES), due: offset, items: fc.array(item, { minLength: 0, maxLength: 4 }), sitemap: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('purge' as const), hostId, priorities: fc.subarray([...PRIORITIES]) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('settle' as const), hostId, item, request: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('pause' as const), hostId, until: offset }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('resume' as const), hostId }) },
  { weight: 1, arbitrary: fc.constant({ op: 'pausedHosts' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'counts' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'recentCompletions' as const }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('claim' as const), limit: fc.integer({ min: 0, max: 4 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('outcome' as const),
      claim: fc.nat(8),
      outcome: fc.constantFrom('complete' as const, 'giveUp' as const, 'retryLater' as const),
      due: offset,
      attemptsMade: fc.integer({ min: 0, max: 2 }),
    }),
  },
  // Now and then a wait long enough to move completions out of their window.
  { weight: 2, arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.constant(5 * 60_000)) }) },
);

/** The domain's rules driven like a store: decide, then fold into the domain's `QueueState`. */
class ModelQueue {
  readonly view = new QueueState();
  /** Claims completed or given up while held, with when: what `recentCompletions` counts. */
  readonly completions: { readonly hostId: number; readonly priority: Priority; readonly at: number }[] = [];

  recentCompletions(now: number): Map<number, Record<Priority, number>> {
    const recent = new Map<number, Record<Priority, number>>();
    for (const hostId of HOSTS) {
      const counts = noRecentCompletions();
      for (const priority of PRIORITIES) {
        const mine = this.completions.filter((c) => c.hostId === hostId && c.priority === priority);
        counts[priority] = completionsInWindow(mine.map((c) => [completionBucket(c.at), 1] as const), now);
      }
      recent.set(hostId, counts);
    }
    return recent;
  }

  apply<T>(decision: QueueDecision<T>): T {
    this.view.evolveAll(decision.events);
    return decision.result;
  }

  counts(now: number): Map<number, HostQueueCounts> {
    const counts = this.view.counts(now);
    for (const hostId of HOSTS) if (!counts.has(hostId)) counts.set(hostId, emptyHostQueueCounts());
    return counts;
  }

  /**
   * Checks a store's claim against the model's: the very entries, in the very
   * order (entries due at the same time in key order, `QUEUE_RULE_TABLE.dueTies`),
   * then takes it over under the store's claim ids.
   */
  acceptClaim(now: number, limit: number, claimed: readonly ClaimedEntry[]): void {
    this.apply(decideLeaseExpiry(this.view, now));
    const expected = decideClaim(this.view, { now, limit, leaseMs: LEASE_MS }, () => 'model');
    const withoutId = ({ claimId: _, ...entry }: ClaimedEntry) => entry;
    expect(claimed.map(withoutId)).toEqual(expected.result.map(withoutId));
    this.view.evolveAll(expected.events.map((event, i): QueueChange => (event.type === 'entry-leased' ? { ...event, lease: { ...event.lease, claimId: claimed[i].claimId } } : event)));
  }
}

const sorted = <V>(map: ReadonlyMap<number, V>) => [...map].sort(([a], [b]) => a - b);

/** Runs one generated sequence against a fresh store and the model, comparing every answer. */
async function runAgainstModel(store: QueueStore, operations: readonly Operation[]): Promise<void> {
  const model = new ModelQueue();
  const claims: ClaimedEntry[] = [];
  let now = T;
  let requests = 0;
  for (const o of operations) {
    switch (o.op) {
      case 'enqueue': {
        const request = { hostId: o.hostId, priority: o.priority, dueAt: now + o.due, items: o.items, entryId: `request-${++requests}`, ...(o.sitemap ? { trigger: 'sitemap' as const } : {}) };
        expect((await store.enqueue(request)).value).toEqual(model.apply(decideEnqueue(model.view, request)));
        break;
      }
      case 'purge':
        expect((await store.purge(o.hostId, o.priorities)).value).toBe(model.apply(decidePurge(model.view, o.hostId, o.priorities)));
        break;
      case 'settle': {
        const entryId = `request-${o.request}`;
        const settled = model.apply(decideSettle(model.view, o.hostId, queueEntryKey(o.item.dimensionId, o.item.url), entryId));
        expect((await store.settle(o.hostId, o.item.url, o.item.dimensionId, entryId)).value).toBe(settled);
        break;
      }
      case 'pause':
        await store.pause(o.hostId, now + o.until);
        model.apply(decidePause(o.hostId, now + o.until));
        break;
      case 'resume':
        await store.resume(o.hostId);
        model.apply(decideResume(o.hostId));
        break;
      case 'pausedHosts':
        expect(sorted(await store.pausedHosts(now))).toEqual(sorted(model.apply(decidePausedHosts(model.view, now))));
        break;
      case 'counts':
        expect(sorted(await store.counts(now, HOSTS))).toEqual(sorted(model.counts(now)));
        break;
      case 'recentCompletions':
        expect(sorted(await store.recentCompletions(now, HOSTS))).toEqual(sorted(model.recentCompletions(now)));
        break;
      case 'claim': {
        const claimed = await store.claim({ now, limit: o.limit, leaseMs: LEASE_MS });
        model.acceptClaim(now, o.limit, claimed);
        claims.push(...claimed);
        // Leases taken at one instant would expire together, returned in an order the port leaves open.
        now += 1;
        break;
      }
      case 'outcome': {
        if (claims.length === 0) break;
        // Mostly recent claims, sometimes ones already settled or expired.
        const claimed = claims[claims.length - 1 - (o.claim % claims.length)];
        if (o.outcome === 'retryLater') {
          await store.retryLater(claimed, now + o.due, o.attemptsMade);
          model.apply(decideRetry(model.view, claimed.claimId, now + o.due, o.attemptsMade));
        } else {
          await store[o.outcome](claimed, now);
          const held = model.view.lease(claimed.claimId);
          if (held) model.completions.push({ hostId: held.entry.hostId, priority: held.entry.priority, at: now });
          model.apply(decideRelease(model.view, claimed.claimId));
        }
        break;
      }
      case 'wait':
        now += o.ms;
        break;
    }
  }
  expect(sorted(await store.counts(now, HOSTS))).toEqual(sorted(model.counts(now)));
}

/**
 * Generated call sequences (seeded, so a run is repeatable) against a store
 * and against the domain's rules (`decide*` folded into `QueueState`): every
 * answer the store gives must be the rules' answer. A failure prints the shrunk sequence.
 */
export function describeQueueStoreModelContract(name: string, factory: () => Promise<QueueStore>, numRuns = 150): void {
  describe(`QueueStore model: ${name}`, () => {
    it('answers every generated call sequence as the domain rules do', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40, size: 'max' }), async (operations) => {
          const store = await factory();
          try {
            await runAgainstModel(store, operations);
          } finally {
            await store.close();
          }
        }),
        { numRuns, seed: 34 },
      );
    });
  });
}
