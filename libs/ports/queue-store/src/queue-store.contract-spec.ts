import { emptyHostQueueCounts, type Priority, type QueueItem } from '@bpc/domain';
import type { ClaimedEntry, EnqueueRequest, ProjectionPosition, QueueStore } from './queue-store.port';
import { describeQueueStoreModelContract } from './queue-store-model.contract-spec';

/**
 * The behaviour every QueueStore adapter must show, run against each of them
 * (memory and Redis) so standalone and cluster mode cannot drift apart. The
 * factory gives a fresh, empty, isolated store per test; the suite closes it.
 */
export function describeQueueStoreContract(name: string, factory: () => Promise<QueueStore>): void {
  const T = 1_700_000_000_000;
  const LEASE = 60_000;

  describe(`QueueStore contract: ${name}`, () => {
    let store: QueueStore;

    beforeEach(async () => {
      store = await factory();
    });

    afterEach(async () => {
      await store.close();
    });

    const urls = (n: number, prefix = 'https://example.com/p') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const itemsOf = (list: string[], dimensionIds = [1]): QueueItem[] => list.flatMap((url) => dimensionIds.map((dimensionId) => ({ url, dimensionId })));

    function enqueue(overrides: Partial<EnqueueRequest> & { items: readonly QueueItem[] }, position?: ProjectionPosition) {
      return store.enqueue({ hostId: 1, priority: 'normal', dueAt: T, entryId: 'event-1', ...overrides }, position);
    }

    async function countsOf(hostId: number, now = T) {
      return (await store.counts(now, [hostId])).get(hostId)!;
    }

    const claim = (now = T, limit = 100, leaseMs = LEASE) => store.claim({ now, limit, leaseMs });
    const pos = (offset: number | string, eventId = `ev-${offset}`, stream = 'queue-events:0'): ProjectionPosition => ({
      stream,
      offset: String(offset),
      eventId,
    });
    const byHost = (claimed: ClaimedEntry[]) => claimed.map((c) => c.hostId);

    describe('enqueue', () => {
      it('creates one entry per URL + dimension; repeats in the request count once', async () => {
        const items: QueueItem[] = [
          { url: 'https://a.test/1', dimensionId: 1 },
          { url: 'https://a.test/1', dimensionId: 2 },
          { url: 'https://a.test/2', dimensionId: 1 },
          { url: 'https://a.test/1', dimensionId: 1 },
        ];
        const result = await enqueue({ items });
        expect(result).toEqual({ applied: true, value: { enqueued: 3, created: 3, promoted: 0 } });
        expect((await countsOf(1)).normal).toEqual({ total: 3, due_now: 3 });
      });

      it('keeps an entry requested again at the same priority, with the earlier due time', async () => {
        await enqueue({ items: itemsOf(['u']), dueAt: T + 5_000 });
        const again = await enqueue({ items: itemsOf(['u']), dueAt: T });
        expect(again.value).toEqual({ enqueued: 1, created: 0, promoted: 0 });
        await enqueue({ items: itemsOf(['u']), dueAt: T + 9_000 });
        expect((await countsOf(1, T)).normal).toEqual({ total: 1, due_now: 1 });
      });

      it('moves an entry up to a higher priority, keeping the earlier due time', async () => {
        await enqueue({ items: itemsOf(['u', 'v']), priority: 'normal', dueAt: T });
        const result = await enqueue({ items: itemsOf(['u']), priority: 'high', dueAt: T + 5_000 });
        expect(result.value).toEqual({ enqueued: 1, created: 0, promoted: 1 });
        const counts = await countsOf(1, T);
        expect(counts.high).toEqual({ total: 1, due_now: 1 });
        expect(counts.normal).toEqual({ total: 1, due_now: 1 });
      });

      it('never moves an entry down; a lower priority request may still bring its due time forward', async () => {
        await enqueue({ items: itemsOf(['u']), priority: 'high', dueAt: T + 5_000 });
        const normal = await enqueue({ items: itemsOf(['u']), priority: 'normal', dueAt: T });
        const auto = await enqueue({ items: itemsOf(['u']), priority: 'autorecache', dueAt: T });
        expect(normal.value).toEqual({ enqueued: 1, created: 0, promoted: 0 });
        expect(auto.value).toEqual({ enqueued: 1, created: 0, promoted: 0 });
        const counts = await countsOf(1, T);
        expect(counts).toEqual({ ...emptyHostQueueCounts(), high: { total: 1, due_now: 1 } });
      });

      it('creates, keeps and promotes in one request', async () => {
        await enqueue({ items: itemsOf(['a']), priority: 'normal' });
        await enqueue({ items: itemsOf(['b']), priority: 'high' });
        const result = await enqueue({ items: itemsOf(['a', 'b', 'c']), priority: 'high' });
        expect(result.value).toEqual({ enqueued: 3, created: 1, promoted: 1 });
        expect((await countsOf(1)).high.total).toBe(3);
      });

      it('names an entry after the latest request that queued it, across a promotion or a plain repeat', async () => {
        await enqueue({ items: itemsOf(['u', 'v']), priority: 'normal', entryId: 'first' });
        await enqueue({ items: itemsOf(['u']), priority: 'high', entryId: 'second' });
        await enqueue({ items: itemsOf(['v']), priority: 'normal', entryId: 'third' });
        const claimed = await claim();
        expect(claimed.map((c) => [c.url, c.priority, c.entryId])).toEqual([
          ['u', 'high', 'second'],
          ['v', 'normal', 'third'],
        ]);
      });

      it('takes a later explicit mode; a request without mode keeps the one set', async () => {
        await enqueue({ items: [{ url: 'kept', dimensionId: 1, mode: 'bypass' }] });
        await enqueue({ items: [{ url: 'kept', dimensionId: 1 }] });
        await enqueue({ items: [{ url: 'changed', dimensionId: 1 }] });
        await enqueue({ items: [{ url: 'changed', dimensionId: 1, mode: 'render' }] });
        const claimed = await claim();
        expect(claimed.find((c) => c.url === 'kept')?.mode).toBe('bypass');
        expect(claimed.find((c) => c.url === 'changed')?.mode).toBe('render');
      });

      it('keeps URLs that contain the key separator intact', async () => {
        const url = 'https://a.test/x|y?z=1|2';
        await enqueue({ items: [{ url, dimensionId: 42 }] });
        const [claimed] = await claim();
        expect(claimed).toMatchObject({ url, dimensionId: 42 });
      });

      it('handles requests larger than one script chunk, creating and promoting across chunk borders', async () => {
        const old = urls(1_500, 'https://a.test/old');
        const fresh = urls(1_500, 'https://a.test/new');
        await enqueue({ items: itemsOf(old), priority: 'normal' });
        const interleaved = old.flatMap((url, i) => [url, fresh[i]]);
        const result = await enqueue({ items: itemsOf(interleaved, [1, 2]), priority: 'high' });
        expect(result.value).toEqual({ enqueued: 6_000, created: 4_500, promoted: 1_500 });
        expect(await countsOf(1)).toEqual({ ...emptyHostQueueCounts(), high: { total: 6_000, due_now: 6_000 } });
      });

      it('answers zeros for a request without items and creates no host', async () => {
        expect((await enqueue({ items: [] })).value).toEqual({ enqueued: 0, created: 0, promoted: 0 });
        expect((await store.counts(T)).size).toBe(0);
      });
    });

    describe('counts', () => {
      it('gives total and due_now per priority, for hosts with entries and named hosts', async () => {
        await enqueue({ hostId: 1, items: itemsOf(urls(3)), priority: 'high', dueAt: T - 1 });
        await enqueue({ hostId: 1, items: itemsOf(urls(2, 'n')), priority: 'normal', dueAt: T + 60_000 });
        await enqueue({ hostId: 2, items: itemsOf(urls(4, 'a')), priority: 'autorecache', dueAt: T });
        const counts = await store.counts(T, [3, 1]);
        expect([...counts.keys()].sort()).toEqual([1, 2, 3]);
        expect(counts.get(1)).toEqual({ high: { total: 3, due_now: 3 }, normal: { total: 2, due_now: 0 }, autorecache: { total: 0, due_now: 0 } });
        expect(counts.get(2)).toEqual({ ...emptyHostQueueCounts(), autorecache: { total: 4, due_now: 4 } });
        expect(counts.get(3)).toEqual(emptyHostQueueCounts());
        expect((await store.counts(T + 60_000)).get(1)?.normal).toEqual({ total: 2, due_now: 2 });
      });

      it('forgets a host once its queues are empty', async () => {
        await enqueue({ hostId: 7, items: itemsOf(['u']) });
        await store.purge(7, ['normal']);
        expect((await store.counts(T)).has(7)).toBe(false);
      });
    });

    describe('purge', () => {
      async function fillAllPriorities(hostId = 1) {
        await enqueue({ hostId, items: itemsOf(urls(2, 'h')), priority: 'high' });
        await enqueue({ hostId, items: itemsOf(urls(3, 'n')), priority: 'normal', dueAt: T + 60_000 });
        await enqueue({ hostId, items: itemsOf(urls(4, 'a')), priority: 'autorecache' });
      }

      it('removes exactly the named priorities and answers how many entries went', async () => {
        await fillAllPriorities();
        expect(await store.purge(1, ['high', 'normal'])).toEqual({ applied: true, value: 5 });
        expect(await countsOf(1)).toEqual({ ...emptyHostQueueCounts(), autorecache: { total: 4, due_now: 4 } });
        expect((await store.purge(1, ['autorecache'])).value).toBe(4);
        expect((await store.purge(1, ['high', 'normal', 'autorecache'])).value).toBe(0);
      });

      it('counts duplicate priorities once', async () => {
        await fillAllPriorities();
        expect((await store.purge(1, ['normal', 'normal', 'normal'])).value).toBe(3);
        expect((await countsOf(1)).high.total).toBe(2);
      });

      it('removes nothing for an empty list and leaves other hosts alone', async () => {
        await fillAllPriorities(1);
        await fillAllPriorities(2);
        expect((await store.purge(1, [])).value).toBe(0);
        expect((await store.purge(1, ['high', 'normal', 'autorecache'])).value).toBe(9);
        expect((await store.purge(99, ['high'])).value).toBe(0);
        expect((await countsOf(2)).autorecache.total).toBe(4);
      });

      it('lets claimed entries go on: they are neither counted nor removed', async () => {
        await enqueue({ items: itemsOf(['u', 'v']), priority: 'high' });
        const [claimed] = await claim(T, 1);
        expect((await store.purge(1, ['high'])).value).toBe(1);
        // The claim still exists: when its lease runs out it comes back.
        const returned = await claim(T + LEASE);
        expect(returned.map((c) => c.url)).toEqual([claimed.url]);
      });
    });

    describe('pause and resume', () => {
      it('lists paused hosts with their deadline; a new pause overwrites it, in either direction', async () => {
        await store.pause(1, T + 10_000);
        await store.pause(2, T + 20_000);
        expect(await store.pausedHosts(T)).toEqual(
          new Map([
            [1, T + 10_000],
            [2, T + 20_000],
          ]),
        );
        await store.pause(1, T + 30_000);
        expect((await store.pausedHosts(T)).get(1)).toBe(T + 30_000);
        await store.pause(1, T + 5_000);
        expect((await store.pausedHosts(T)).get(1)).toBe(T + 5_000);
      });

      it('resumes idempotently', async () => {
        await store.pause(1, T + 10_000);
        await store.resume(1);
        await store.resume(1);
        await store.resume(2);
        expect((await store.pausedHosts(T)).size).toBe(0);
      });

      it('treats an expired pause as not paused', async () => {
        await store.pause(1, T + 10_000);
        expect((await store.pausedHosts(T + 9_999)).has(1)).toBe(true);
        expect((await store.pausedHosts(T + 10_000)).has(1)).toBe(false);
        expect((await store.pausedHosts(T + 99_999)).size).toBe(0);
      });
    });

    describe('claim', () => {
      it('takes high (across hosts) before normal before autorecache', async () => {
        await enqueue({ hostId: 1, items: itemsOf(['a']), priority: 'autorecache' });
        await enqueue({ hostId: 2, items: itemsOf(['n']), priority: 'normal' });
        await enqueue({ hostId: 3, items: itemsOf(['h']), priority: 'high' });
        expect((await claim(T, 1)).map((c) => c.priority)).toEqual(['high']);
        expect((await claim(T, 5)).map((c) => c.priority)).toEqual(['normal', 'autorecache']);
      });

      it('describes and leases what it takes; taken entries leave their queue', async () => {
        await enqueue({ hostId: 4, items: [{ url: 'u', dimensionId: 9, mode: 'render' }], priority: 'high', entryId: 'req-1' });
        const claimed = await claim(T, 10, 30_000);
        expect(claimed).toEqual([
          {
            hostId: 4,
            url: 'u',
            dimensionId: 9,
            priority: 'high',
            mode: 'render',
            entryId: 'req-1',
            attempt: 0,
            claimId: expect.any(String),
            leaseUntil: T + 30_000,
          },
        ]);
        expect(await countsOf(4)).toEqual(emptyHostQueueCounts());
        expect(await claim(T + 1, 10)).toEqual([]);
      });

      it('takes only due entries, earliest first, up to the limit', async () => {
        await enqueue({ items: itemsOf(['later']), dueAt: T + 1_000 });
        await enqueue({ items: itemsOf(['first']), dueAt: T - 2_000 });
        await enqueue({ items: itemsOf(['second']), dueAt: T - 1_000 });
        expect(await claim(T, 0)).toEqual([]);
        expect((await claim(T, 1)).map((c) => c.url)).toEqual(['first']);
        expect((await claim(T, 5)).map((c) => c.url)).toEqual(['second']);
        expect((await claim(T + 1_000, 5)).map((c) => c.url)).toEqual(['later']);
      });

      it('takes entries due at the same time in key order: dimension id, "|", URL, compared as UTF-8 bytes, however they were queued', async () => {
        const at = (url: string, dimensionId = 1) => ({ url: `https://example.com/${url}`, dimensionId });
        await enqueue({ items: [at('\u{1F600}'), at('b', 2), at('\uFFFD')] });
        await enqueue({ items: [at('a', 10), at('c')], entryId: 'event-2' });
        await enqueue({ items: [at('z')], dueAt: T - 1 });
        // Bytes put '10|' before '1|' ('0' < '|') and U+FFFD before U+1F600, which JavaScript's own string order turns round.
        expect((await claim(T, 10)).map((c) => `${c.dimensionId}|${c.url.slice(20)}`)).toEqual(['1|z', '10|a', '1|c', '1|\uFFFD', '1|\u{1F600}', '2|b']);
      });

      it('puts a retried entry back at its key’s place among the entries due at its time', async () => {
        await enqueue({ items: itemsOf(['b', 'a', 'c']) });
        const [first] = await claim(T, 1);
        expect(first.url).toBe('a');
        await store.retryLater(first, T, 0);
        expect((await claim(T, 10)).map((c) => c.url)).toEqual(['a', 'b', 'c']);
      });

      it('serves a small host in the same claim as a host with a thousand entries', async () => {
        await enqueue({ hostId: 1, items: itemsOf(urls(1_000)) });
        await enqueue({ hostId: 2, items: itemsOf(['lonely']) });
        expect(byHost(await claim(T, 2)).sort()).toEqual([1, 2]);
      });

      it('goes round-robin within a priority, one entry per host per round', async () => {
        await enqueue({ hostId: 1, items: itemsOf(urls(3)) });
        await enqueue({ hostId: 2, items: itemsOf(urls(3)) });
        await enqueue({ hostId: 3, items: itemsOf(urls(1)) });
        const hosts = byHost(await claim(T, 5));
        expect(hosts.filter((h) => h === 1)).toHaveLength(2);
        expect(hosts.filter((h) => h === 2)).toHaveLength(2);
        expect(hosts.filter((h) => h === 3)).toHaveLength(1);
      });

      it('rotates the starting host across calls so no host starves', async () => {
        for (const hostId of [1, 2, 3]) await enqueue({ hostId, items: itemsOf(urls(10)) });
        const served = [];
        for (let i = 0; i < 6; i++) served.push(...byHost(await claim(T, 1)));
        expect(served.slice(0, 3).sort()).toEqual([1, 2, 3]);
        expect(served.slice(3).sort()).toEqual([1, 2, 3]);
      });

      it('skips paused hosts; a resumed or expired pause makes them eligible at once', async () => {
        await enqueue({ hostId: 1, items: itemsOf(urls(3)) });
        await enqueue({ hostId: 2, items: itemsOf(urls(3)) });
        await store.pause(1, T + 10_000);
        await store.pause(2, T + 10_000);
        expect(await claim(T, 10)).toEqual([]);
        await store.resume(1);
        expect(byHost(await claim(T, 10))).toEqual([1, 1, 1]);
        expect(byHost(await claim(T + 10_000, 10))).toEqual([2, 2, 2]);
      });

      it('creates a new queued entry when the same key is requested while claimed', async () => {
        await enqueue({ items: itemsOf(['u']), entryId: 'first' });
        await claim();
        expect((await enqueue({ items: itemsOf(['u']), entryId: 'second' })).value).toEqual({ enqueued: 1, created: 1, promoted: 0 });
        expect((await claim()).map((c) => c.entryId)).toEqual(['second']);
      });
    });

    describe('leases and outcomes', () => {
      async function claimOne(dueAt = T, priority: Priority = 'normal') {
        await enqueue({ items: itemsOf(['u']), dueAt, priority, entryId: 'first' });
        const [claimed] = await claim(dueAt, 1, LEASE);
        return claimed;
      }

      it('retryLater with 0 attempts made returns a pulled entry exactly as it was, due at the given time', async () => {
        const pulled = await claimOne();
        await store.retryLater(pulled, T + 10, 0);
        expect(await claim(T + 9)).toEqual([]);
        const [again] = await claim(T + 10);
        expect(again).toMatchObject({ url: 'u', entryId: 'first', attempt: 0 });
        await expect(store.retryLater(again, T, -1)).rejects.toThrow(/attemptsMade must be a non-negative integer/);
      });

      it('returns an entry to its queue once its lease expired, with a fresh claim id and the same attempt count', async () => {
        const first = await claimOne();
        expect(await claim(T + LEASE - 1)).toEqual([]);
        const again = await claim(T + LEASE);
        expect(again).toHaveLength(1);
        expect(again[0]).toMatchObject({ url: 'u', entryId: 'first', attempt: 0, leaseUntil: T + 2 * LEASE });
        expect(again[0].claimId).not.toBe(first.claimId);
      });

      it('complete releases the claim for good, and is idempotent', async () => {
        const claimed = await claimOne();
        await store.complete(claimed);
        await store.complete(claimed);
        expect(await claim(T + 10 * LEASE)).toEqual([]);
        expect(await countsOf(1, T + 10 * LEASE)).toEqual(emptyHostQueueCounts());
      });

      it('giveUp drops the entry, and is idempotent', async () => {
        const claimed = await claimOne();
        await store.giveUp(claimed);
        await store.giveUp(claimed);
        expect(await claim(T + 10 * LEASE)).toEqual([]);
      });

      it('retryLater puts the entry back at its priority, due at the given time, with one more attempt', async () => {
        const claimed = await claimOne(T, 'high');
        await store.retryLater(claimed, T + 5_000);
        await store.retryLater(claimed, T + 5_000);
        expect((await countsOf(1, T)).high).toEqual({ total: 1, due_now: 0 });
        expect(await claim(T + 4_999)).toEqual([]);
        const [retried] = await claim(T + 5_000);
        expect(retried).toMatchObject({ url: 'u', priority: 'high', entryId: 'first', attempt: 1 });
        await store.retryLater(retried, T + 6_000);
        expect((await claim(T + 6_000))[0].attempt).toBe(2);
      });

      it('ignores outcomes for a claim whose lease expired and was taken again', async () => {
        const stale = await claimOne();
        const [fresh] = await claim(T + LEASE);
        await store.complete(stale);
        await store.giveUp(stale);
        await store.retryLater(stale, T);
        expect(await countsOf(1, T + LEASE)).toEqual(emptyHostQueueCounts());
        await store.retryLater(fresh, T + LEASE);
        expect((await claim(T + LEASE))[0]).toMatchObject({ url: 'u', attempt: 1 });
      });

      it('merges a retried entry into the entry a newer request queued meanwhile', async () => {
        const claimed = await claimOne(T, 'high');
        await enqueue({ items: itemsOf(['u']), priority: 'normal', dueAt: T + 1_000, entryId: 'second' });
        await store.retryLater(claimed, T + 9_000);
        const counts = await countsOf(1, T + 1_000);
        expect(counts).toEqual({ ...emptyHostQueueCounts(), high: { total: 1, due_now: 1 } });
        expect(await claim(T + 1_000)).toEqual([expect.objectContaining({ url: 'u', priority: 'high', entryId: 'second', attempt: 0 })]);
      });

      it('merges an expired lease into the entry a newer request queued meanwhile', async () => {
        await claimOne(T, 'normal');
        await enqueue({ items: itemsOf(['u']), priority: 'high', dueAt: T + 1_000, entryId: 'second' });
        const claimed = await claim(T + LEASE);
        expect(claimed).toEqual([expect.objectContaining({ url: 'u', priority: 'high', entryId: 'second' })]);
        expect(await countsOf(1, T + LEASE)).toEqual(emptyHostQueueCounts());
      });
    });

    describe('projection positions', () => {
      it('applies a position once and answers the recorded result on redelivery', async () => {
        const first = await enqueue({ items: itemsOf(['a', 'b']) }, pos(5));
        expect(first).toEqual({ applied: true, value: { enqueued: 2, created: 2, promoted: 0 } });
        await store.purge(1, ['normal']);
        const again = await enqueue({ items: itemsOf(['a', 'b']) }, pos(5));
        expect(again).toEqual({ applied: false, value: { enqueued: 2, created: 2, promoted: 0 } });
        expect((await countsOf(1)).normal.total).toBe(0);
      });

      it('skips any offset at or below the applied one, comparing offsets as numbers', async () => {
        await store.pause(1, T + 1_000, pos(10));
        expect(await store.pause(1, T + 9_000, pos(9, 'unknown-event'))).toEqual({ applied: false, value: undefined });
        expect((await store.pausedHosts(T)).get(1)).toBe(T + 1_000);
        expect((await store.resume(1, pos(11))).applied).toBe(true);
        expect((await store.pausedHosts(T)).size).toBe(0);
      });

      it('records purge counts so a replayed purge answers the same number and removes nothing', async () => {
        await enqueue({ items: itemsOf(urls(3)) });
        expect(await store.purge(1, ['normal'], pos(1))).toEqual({ applied: true, value: 3 });
        await enqueue({ items: itemsOf(urls(2)) });
        expect(await store.purge(1, ['normal'], pos(1))).toEqual({ applied: false, value: 3 });
        expect((await countsOf(1)).normal.total).toBe(2);
        expect(await store.resultOf('ev-1')).toBe(3);
      });

      it('passes the same event stored again at a later offset (a producer retry), moving the checkpoint past it', async () => {
        await enqueue({ items: itemsOf(urls(3)) });
        expect(await store.purge(1, ['normal'], pos(4, 'purge-1'))).toEqual({ applied: true, value: 3 });
        await enqueue({ items: itemsOf(urls(2)) }, pos(5, 'queued-between'));
        expect(await store.purge(1, ['normal'], pos(6, 'purge-1'))).toEqual({ applied: false, value: 3 });
        expect((await countsOf(1)).normal.total).toBe(2);
        expect(await store.nextOffset('queue-events:0')).toBe('7');
      });

      it('keeps one applied offset per stream and answers the next one to read', async () => {
        expect(await store.nextOffset('queue-events:0')).toBeUndefined();
        await enqueue({ items: itemsOf(['a']) });
        expect(await store.nextOffset('queue-events:0')).toBeUndefined();
        await enqueue({ items: itemsOf(['a']) }, pos(0));
        expect(await store.nextOffset('queue-events:0')).toBe('1');
        await store.pause(1, T, pos('9007199254740993', 'big', 'queue-events:1'));
        expect(await store.nextOffset('queue-events:1')).toBe('9007199254740994');
        expect((await enqueue({ items: itemsOf(['b']) }, pos(0, 'other', 'queue-events:2'))).applied).toBe(true);
        expect(await store.nextOffset('queue-events:0')).toBe('1');
      });

      it('answers recorded results by event id, undefined for unknown ones', async () => {
        await enqueue({ items: itemsOf(['a']) }, pos(3, 'evt-a'));
        expect(await store.resultOf('evt-a')).toEqual({ enqueued: 1, created: 1, promoted: 0 });
        expect(await store.resultOf('never-seen')).toBeUndefined();
      });

      it('settle removes the queued entry only while it is the named entry, once per position', async () => {
        await enqueue({ items: itemsOf(['a', 'b']), entryId: 'first' });
        expect(await store.settle(1, 'b', 1, 'other')).toEqual({ applied: true, value: false });
        const settled = await store.settle(1, 'a', 1, 'first', pos(20, 'settle-a'));
        expect(settled).toEqual({ applied: true, value: true });
        expect(await store.settle(1, 'a', 1, 'first', pos(20, 'settle-a'))).toEqual({ applied: false, value: true });
        expect((await store.counts(T)).get(1)?.normal.total).toBe(1);
        expect(await store.settle(1, 'b', 1, 'first')).toEqual({ applied: true, value: true });
        expect((await store.counts(T)).has(1)).toBe(false);
      });

      it('answers null for an applied mutation without a value, so waiters can tell it from "not yet"', async () => {
        await store.pause(1, T + 1_000, pos(7, 'evt-pause'));
        await store.resume(1, pos(8, 'evt-resume'));
        expect(await store.resultOf('evt-pause')).toBeNull();
        expect(await store.resultOf('evt-resume')).toBeNull();
      });

      it('always applies mutations without a position', async () => {
        await store.pause(1, T + 1_000, pos(50));
        expect(await store.resume(1)).toEqual({ applied: true, value: undefined });
        expect((await store.pausedHosts(T)).size).toBe(0);
      });
    });

    describe('sitemap trigger', () => {
      it('claims an entry with the trigger of the request that last queued it', async () => {
        await enqueue({ items: itemsOf(['s', 'both', 'plain']), trigger: 'sitemap', entryId: 'sitemap-1' });
        await enqueue({ items: itemsOf(['both']), entryId: 'api-1' });
        await enqueue({ items: itemsOf(['plain', 'late']), entryId: 'api-2' });
        await enqueue({ items: itemsOf(['late']), priority: 'high', trigger: 'sitemap', entryId: 'sitemap-2' });
        const claimed = await claim();
        const triggers = Object.fromEntries(claimed.map((c) => [c.url, c.trigger ?? 'none']));
        expect(triggers).toEqual({ s: 'sitemap', both: 'none', plain: 'none', late: 'sitemap' });
      });

      it('keeps the trigger when the claim returns to its queue, and a newer request’s when one queued the key meanwhile', async () => {
        await enqueue({ items: itemsOf(['a', 'b']), trigger: 'sitemap', entryId: 'sitemap-1' });
        const first = await claim();
        await enqueue({ items: itemsOf(['b']), entryId: 'api-1' });
        for (const c of first) await store.retryLater(c, T);
        const again = await claim(T + 1);
        expect(again.map((c) => [c.url, c.trigger, c.entryId]).sort()).toEqual([
          ['b', undefined, 'api-1'],
          ['a', 'sitemap', 'sitemap-1'],
        ].sort());
      });

      it('rejects an unknown trigger', async () => {
        await expect(enqueue({ items: itemsOf(['u']), trigger: 'crawler' as never })).rejects.toThrow(/invalid queue store call: unknown trigger/);
      });
    });

    describe('claimed keys', () => {
      it('lists the keys of a host held by a live claim, not queued ones, other hosts’ or expired leases', async () => {
        await enqueue({ items: itemsOf(['a', 'b'], [1, 2]) });
        await enqueue({ hostId: 2, items: itemsOf(['c']) });
        // One round of the rotation: one entry of each host.
        const claimed = await store.claim({ now: T, limit: 2, leaseMs: 1_000 });
        const ofHost1 = claimed.find((c) => c.hostId === 1)!;
        expect(await store.claimedKeys(1, T)).toEqual([{ url: ofHost1.url, dimensionId: ofHost1.dimensionId }]);
        expect(await store.claimedKeys(2, T)).toEqual([{ url: 'c', dimensionId: 1 }]);
        expect(await store.claimedKeys(1, T + 1_000)).toEqual([]);
        expect(await store.claimedKeys(3, T)).toEqual([]);
      });

      it('drops a key once its claim completes, gives up or goes back to its queue', async () => {
        await enqueue({ items: itemsOf(['a', 'b', 'c']) });
        const [a, b, c] = (await claim()).sort((x, y) => x.url.localeCompare(y.url));
        expect((await store.claimedKeys(1, T)).map((k) => [k.url, k.dimensionId]).sort()).toEqual([[a.url, 1], [b.url, 1], [c.url, 1]]);
        await store.complete(a, T);
        await store.giveUp(b, T);
        await store.retryLater(c, T + 5_000);
        expect(await store.claimedKeys(1, T)).toEqual([]);
      });
    });

    describe('recent completions', () => {
      const MINUTE = 60_000;

      it('counts completed and given-up claims per host and priority within the last ten minutes', async () => {
        await enqueue({ items: itemsOf(urls(3)), priority: 'high' });
        await enqueue({ items: itemsOf(urls(2, 'https://example.com/n')) });
        await enqueue({ hostId: 2, items: itemsOf(urls(1, 'https://example.com/o')) });
        const claimed = await claim(T, 10);
        for (const c of claimed.filter((c) => c.hostId === 1)) await (c.priority === 'high' ? store.complete(c, T) : store.giveUp(c, T + 3 * MINUTE));
        const retried = claimed.find((c) => c.hostId === 2)!;
        await store.retryLater(retried, T);
        const recent = await store.recentCompletions(T + 5 * MINUTE, [1, 2, 3]);
        expect(recent.get(1)).toEqual({ high: 3, normal: 2, autorecache: 0 });
        expect(recent.get(2)).toEqual({ high: 0, normal: 0, autorecache: 0 });
        expect(recent.get(3)).toEqual({ high: 0, normal: 0, autorecache: 0 });
        // Ten minutes on, the high completions have left the window; the normal ones (3 minutes later) are still in it.
        expect((await store.recentCompletions(T + 10 * MINUTE, [1])).get(1)).toEqual({ high: 0, normal: 2, autorecache: 0 });
        expect((await store.recentCompletions(T + 14 * MINUTE, [1])).get(1)).toEqual({ high: 0, normal: 0, autorecache: 0 });
      });

      it('counts a claim once: outcomes of an unknown or already released claim count nothing', async () => {
        await enqueue({ items: itemsOf(['u']) });
        const [c] = await claim();
        await store.complete(c, T);
        await store.complete(c, T);
        await store.giveUp(c, T);
        await store.complete({ ...c, claimId: 'unknown' }, T);
        expect((await store.recentCompletions(T, [1])).get(1)?.normal).toBe(1);
      });

      it('answers nothing for no hosts', async () => {
        expect((await store.recentCompletions(T, [])).size).toBe(0);
      });
    });

    it('rejects malformed calls before changing anything', async () => {
      const bad: EnqueueRequest[] = [
        { hostId: 1, priority: 'urgent' as Priority, dueAt: T, entryId: 'e', items: itemsOf(['u']) },
        { hostId: 1, priority: 'high', dueAt: Number.NaN, entryId: 'e', items: itemsOf(['u']) },
        { hostId: 1.5, priority: 'high', dueAt: T, entryId: 'e', items: itemsOf(['u']) },
        { hostId: 1, priority: 'high', dueAt: T, entryId: 'e', items: [...itemsOf(['u']), { url: 'v', dimensionId: 1, mode: 'RENDER' as never }] },
      ];
      for (const request of bad) await expect(store.enqueue(request, pos(1))).rejects.toThrow(/invalid queue store call/);
      await expect(store.purge(1, ['HIGH' as Priority])).rejects.toThrow(/unknown priority/);
      await expect(store.pause(1, Number.NaN)).rejects.toThrow(/expiresAt/);
      await expect(store.claim({ now: T, limit: -1, leaseMs: LEASE })).rejects.toThrow(/limit/);
      await expect(store.counts(Number.NaN)).rejects.toThrow(/now/);
      expect((await store.counts(T)).size).toBe(0);
      expect(await store.nextOffset('queue-events:0')).toBeUndefined();
    });

    it('answers readiness checks', async () => {
      await expect(store.check()).resolves.toBeUndefined();
    });
  });

  describeQueueStoreModelContract(name, factory);
}
