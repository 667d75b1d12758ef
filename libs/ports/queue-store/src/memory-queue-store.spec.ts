import { MemoryQueueStore, type QueueStoreSnapshot } from './memory-queue-store';

describe('MemoryQueueStore snapshots', () => {
  const T = 1_700_000_000_000;
  const clock = () => T;
  const pos = (offset: number, eventId: string) => ({ stream: 'queue-events:0', offset: String(offset), eventId });

  async function busyStore(): Promise<MemoryQueueStore> {
    const store = new MemoryQueueStore({ clock });
    await store.enqueue({ hostId: 1, priority: 'high', dueAt: T, entryId: 'e1', items: [{ url: 'h1', dimensionId: 1, mode: 'render' }] }, pos(0, 'ev-0'));
    await store.enqueue(
      { hostId: 1, priority: 'normal', dueAt: T + 5_000, entryId: 'e2', items: ['n1', 'n2', 'n3'].map((url) => ({ url, dimensionId: 2 })) },
      pos(1, 'ev-1'),
    );
    await store.enqueue({ hostId: 2, priority: 'autorecache', dueAt: T - 1, entryId: 'e3', items: [{ url: 'a1', dimensionId: 1 }] }, pos(2, 'ev-2'));
    await store.enqueue({ hostId: 3, priority: 'normal', dueAt: T, entryId: 'e4', items: [{ url: 'c1', dimensionId: 1, mode: 'bypass' }] });
    await store.pause(2, T + 60_000, pos(3, 'ev-3'));
    // h1 (high) is retried once, then claimed again with c1: both are in flight at snapshot time.
    const [first] = await store.claim({ now: T, limit: 2, leaseMs: 30_000 });
    await store.retryLater(first, T);
    await store.claim({ now: T, limit: 2, leaseMs: 30_000 });
    return store;
  }

  it('is plain JSON carrying its version', async () => {
    const snapshot = (await busyStore()).snapshot();
    expect(snapshot.version).toBe(1);
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it('restores queues, pauses, checkpoints and results; claims in flight go back to their queues', async () => {
    const original = await busyStore();
    const snapshot: QueueStoreSnapshot = JSON.parse(JSON.stringify(original.snapshot()));
    expect(snapshot.claimed).toHaveLength(2);
    const restored = MemoryQueueStore.fromSnapshot(snapshot, { clock });

    const counts = await restored.counts(T);
    expect(counts.get(1)).toEqual({ high: { total: 1, due_now: 1 }, normal: { total: 3, due_now: 0 }, autorecache: { total: 0, due_now: 0 } });
    expect(counts.get(2)?.autorecache).toEqual({ total: 1, due_now: 1 });
    expect(counts.get(3)?.normal).toEqual({ total: 1, due_now: 1 });
    expect(await restored.pausedHosts(T)).toEqual(new Map([[2, T + 60_000]]));
    expect(await restored.nextOffset('queue-events:0')).toBe('4');
    expect(await restored.resultOf('ev-1')).toEqual({ enqueued: 3, created: 3, promoted: 0 });

    const replay = await restored.enqueue({ hostId: 9, priority: 'high', dueAt: T, entryId: 'e0', items: [{ url: 'x', dimensionId: 1 }] }, pos(2, 'ev-2'));
    expect(replay).toEqual({ applied: false, value: { enqueued: 1, created: 1, promoted: 0 } });

    const claimed = await restored.claim({ now: T + 5_000, limit: 10, leaseMs: 1_000 });
    expect(claimed.map((c) => [c.hostId, c.url, c.priority, c.mode, c.entryId, c.attempt])).toEqual(
      expect.arrayContaining([
        [1, 'h1', 'high', 'render', 'e1', 1],
        [3, 'c1', 'normal', 'bypass', 'e4', 0],
        [1, 'n1', 'normal', undefined, 'e2', 0],
      ]),
    );
    expect(claimed).toHaveLength(5);
  });

  it('keeps the drain order of equal due times (key order) across a round trip', async () => {
    const store = new MemoryQueueStore({ clock });
    const urls = Array.from({ length: 50 }, (_, i) => `u${i}`);
    await store.enqueue({ hostId: 1, priority: 'normal', dueAt: T, entryId: 'e', items: urls.map((url) => ({ url, dimensionId: 1 })) });
    const restored = MemoryQueueStore.fromSnapshot(store.snapshot(), { clock });
    // Keys are `1|u<n>`: ASCII, so their byte order is JavaScript's sort.
    expect((await restored.claim({ now: T, limit: 50, leaseMs: 1_000 })).map((c) => c.url)).toEqual([...urls].sort());
  });

  it('keeps the sitemap trigger of queued and claimed entries across a round trip', async () => {
    const store = new MemoryQueueStore({ clock });
    await store.enqueue({ hostId: 1, priority: 'normal', dueAt: T, entryId: 's1', trigger: 'sitemap', items: [{ url: 'q', dimensionId: 1 }, { url: 'c', dimensionId: 1 }] });
    await store.claim({ now: T, limit: 1, leaseMs: 30_000 });
    const restored = MemoryQueueStore.fromSnapshot(JSON.parse(JSON.stringify(store.snapshot())), { clock });
    const claimed = await restored.claim({ now: T, limit: 5, leaseMs: 30_000 });
    expect(claimed.map((c) => [c.url, c.trigger]).sort()).toEqual([['c', 'sitemap'], ['q', 'sitemap']]);
  });

  it('refuses a snapshot of another version', () => {
    const snapshot = { ...new MemoryQueueStore().snapshot(), version: 2 } as unknown as QueueStoreSnapshot;
    expect(() => MemoryQueueStore.fromSnapshot(snapshot)).toThrow(/unsupported queue store snapshot version 2/);
  });
});
