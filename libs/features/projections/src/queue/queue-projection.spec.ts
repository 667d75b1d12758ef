import { AUTORECACHE_SCHEDULED, newQueueEvent, RECACHE_REQUESTED, RECACHE_SUCCEEDED, RecacheRequested } from '@bpc/events';
import { MemoryQueueStore } from '@bpc/queue-store';
import { applyQueueEvent } from './queue-projection';

const T = 1_700_000_000_000;
const url = 'https://www.example.com/a';
const request = (at: number): RecacheRequested =>
  newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [url], dimensionIds: [1], priority: 'normal', source: 'daemon-api' }, '1', at);
const pos = (offset: number, eventId: string) => ({ stream: 'q:0', offset: String(offset), eventId });

describe('queue projection: a store rebuilt from the log holds what the live store held', () => {
  it('given a request made while its entry was claimed, replaying the success keeps the newer request', async () => {
    const first = request(T);
    const second = request(T + 1);
    const succeeded = newQueueEvent(
      RECACHE_SUCCEEDED,
      { hostId: 1, url, dimensionId: 1, priority: 'normal', entryId: first.id, attempt: 1, durationMs: 5, outcome: 'fetched', mode: 'bypass', statusCode: 200 },
      '1',
      T + 2,
    );

    const live = new MemoryQueueStore();
    await applyQueueEvent(live, first, pos(0, first.id));
    const [claim] = await live.claim({ now: T, limit: 1, leaseMs: 60_000 });
    await applyQueueEvent(live, second, pos(1, second.id));
    await live.complete(claim);
    await applyQueueEvent(live, succeeded, pos(2, succeeded.id));

    const replayed = new MemoryQueueStore();
    for (const [i, event] of [first, second, succeeded].entries()) await applyQueueEvent(replayed, event, pos(i, event.id));

    expect((await live.counts(T + 5)).get(1)?.normal.total).toBe(1);
    expect((await replayed.counts(T + 5)).get(1)?.normal.total).toBe(1);
  });

  it('given a success for the entry as it was, replaying it settles the entry', async () => {
    const only = request(T);
    const succeeded = newQueueEvent(
      RECACHE_SUCCEEDED,
      { hostId: 1, url, dimensionId: 1, priority: 'normal', entryId: only.id, attempt: 1, durationMs: 5, outcome: 'fetched', mode: 'bypass', statusCode: 200 },
      '1',
      T + 2,
    );
    const replayed = new MemoryQueueStore();
    await applyQueueEvent(replayed, only, pos(0, only.id));
    await applyQueueEvent(replayed, succeeded, pos(1, succeeded.id));
    expect((await replayed.counts(T + 5)).has(1)).toBe(false);
  });

  it('given an autorecache scheduled twice for one entry, it is queued once, due at its expiry, and a later request promotes it', async () => {
    const scheduled = (at: number, dueAt: number) => newQueueEvent(AUTORECACHE_SCHEDULED, { hostId: 1, url, dimensionId: 1, dueAt }, '1', at);
    const store = new MemoryQueueStore();
    const events = [scheduled(T, T + 86_400_000), scheduled(T + 1, T + 86_400_000), request(T + 2)];
    for (const [i, event] of events.entries()) await applyQueueEvent(store, event, pos(i, event.id));
    expect((await store.counts(T + 5)).get(1)?.autorecache.total ?? 0).toBe(0);
    expect((await store.counts(T + 5)).get(1)?.normal.total).toBe(1);

    const fresh = new MemoryQueueStore();
    const once = [scheduled(T, T + 1_000), scheduled(T + 1, T + 1_000)];
    for (const [i, event] of once.entries()) await applyQueueEvent(fresh, event, pos(i, event.id));
    expect((await fresh.counts(T + 5)).get(1)?.autorecache).toEqual({ total: 1, due_now: 0 });
    expect((await fresh.counts(T + 1_000)).get(1)?.autorecache).toEqual({ total: 1, due_now: 1 });
  });

  it('given a request from a sitemap, the entry is claimed with the sitemap trigger; a later API request for it clears it', async () => {
    const fromSitemap = newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [url, `${url}/b`], dimensionIds: [1], priority: 'normal', source: 'sitemap', receiptId: 'r-1' }, '1', T);
    const fromApi = newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [`${url}/b`], dimensionIds: [1], priority: 'normal', source: 'public-api' }, '1', T + 1);
    const store = new MemoryQueueStore();
    for (const [i, event] of [fromSitemap, fromApi].entries()) await applyQueueEvent(store, event, pos(i, event.id));
    const claimed = await store.claim({ now: T + 5, limit: 5, leaseMs: 60_000 });
    expect(Object.fromEntries(claimed.map((c) => [c.url, c.trigger]))).toEqual({ [url]: 'sitemap', [`${url}/b`]: undefined });
  });

  it('given a settled request (demo history) and its outcome, nothing is queued, and a live entry of the same key is neither moved up nor settled', async () => {
    const live = newQueueEvent(AUTORECACHE_SCHEDULED, { hostId: 1, url, dimensionId: 1, dueAt: T + 86_400_000 }, '1', T);
    const settled = newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [url, `${url}/b`], dimensionIds: [1], priority: 'high', source: 'public-api', receiptId: 'r-demo', settled: true }, '1', T - 3_600_000);
    const succeeded = newQueueEvent(
      RECACHE_SUCCEEDED,
      { hostId: 1, url, dimensionId: 1, priority: 'high', entryId: settled.id, attempt: 1, durationMs: 5, outcome: 'rendered', mode: 'render', statusCode: 200 },
      '1',
      T - 3_599_000,
    );
    const store = new MemoryQueueStore();
    await applyQueueEvent(store, live, pos(0, live.id));
    await applyQueueEvent(store, settled, pos(1, settled.id));
    // Queued at its past time (or moving the live entry up to it), it would be claimed now: nothing is due.
    expect(await store.claim({ now: T, limit: 10, leaseMs: 60_000 })).toEqual([]);
    await applyQueueEvent(store, succeeded, pos(2, succeeded.id));
    expect((await store.counts(T)).get(1)).toMatchObject({ high: { total: 0 }, autorecache: { total: 1, due_now: 0 } });
  });
});
