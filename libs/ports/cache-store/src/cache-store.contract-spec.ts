import { until } from '@bpc/testing';
import { factsWith } from '../../../core/domain/src/pages/page-facts.fixtures';
import type { ObjectStore } from '@bpc/object-store';
import type { CacheStore, NewCacheEntry, ProjectionPosition } from './cache-store.port';
import type { OrphanSweepOptions, SweepReport } from './orphan-sweep';

export interface CacheStoreUnderTest {
  readonly store: CacheStore & { sweepOrphans(): Promise<SweepReport> };
  /** Where the bodies live; the store keeps them under `cache/` (the suite looks at them through it: files or S3 alike). */
  readonly objects: ObjectStore;
}

/** Options every adapter takes; the suite shortens the removal grace period to see bodies go, and drives the sweep's clock. */
export interface CacheStoreTestOptions {
  readonly bodyRemovalDelayMs: number;
  readonly orphanSweep?: OrphanSweepOptions;
}

/** What of the suite runs: `bodies` leaves out listing and projection positions (metadata only), for a second object store under an adapter already run whole. */
export type CacheStoreSuitePart = 'all' | 'bodies';

/**
 * The behaviour every CacheStore adapter must show, run against each of them
 * (file and Redis) so standalone and cluster mode cannot drift apart. The
 * factory gives a fresh, empty, isolated store per test; the suite closes it.
 */
export function describeCacheStoreContract(name: string, factory: (options: CacheStoreTestOptions) => Promise<CacheStoreUnderTest>, part: CacheStoreSuitePart = 'all'): void {
  const describeMetadata = part === 'all' ? describe : describe.skip;
  const T = 1_700_000_000_000;
  const HOUR = 3_600_000;

  describe(`CacheStore contract: ${name}`, () => {
    let store: CacheStoreUnderTest['store'];
    let objects: ObjectStore;
    /** The sweep's clock runs this far ahead of the real one: bodies written now look that old to it. */
    let sweepAhead = 0;

    beforeEach(async () => {
      sweepAhead = 0;
      // Sweeps only when asked; the grace period is judged by a clock the test moves.
      ({ store, objects } = await factory({ bodyRemovalDelayMs: 0, orphanSweep: { intervalMs: 0, graceMs: 60_000, clock: () => Date.now() + sweepAhead } }));
    });

    afterEach(async () => {
      await store.close();
    });

    const entry = (overrides: Partial<NewCacheEntry> = {}): NewCacheEntry => ({
      hostId: 1,
      url: 'https://www.example.com/pricing?x=1',
      dimensionId: 1,
      kind: 'render',
      statusCode: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      durationMs: 120,
      createdAt: T,
      expiresAt: T + HOUR,
      ...overrides,
    });
    const html = (text: string) => Buffer.from(`<html><body>${text}</body></html>`);
    const bodyOf = async (hostId = 1, url = entry().url, dimensionId = 1) => (await (await store.get(hostId, url, dimensionId))?.readBody())?.toString();
    const pos = (offset: number | string, eventId = `ev-${offset}`, stream = 'bpc.queue.v1:0'): ProjectionPosition => ({ stream, offset: String(offset), eventId });
    /** Whether the body object is there (`bodyPath` is relative to the cache's prefix). */
    const exists = async (relative: string, where: ObjectStore = objects): Promise<boolean> => (await where.stat(`cache/${relative}`)) !== undefined;
    const eventually = (check: () => Promise<boolean>, what: string): Promise<void> => until(check, { timeoutMs: 5_000, intervalMs: 20, what });

    describe('put and get', () => {
      it('stores an entry and serves it with its metadata and body', async () => {
        const result = await store.put(entry(), html('hello'));
        expect(result).toEqual({ stored: true, entry: expect.objectContaining({ ...entry(), bytes: html('hello').length, bodyPath: expect.any(String) }) });
        const hit = await store.get(1, entry().url, 1);
        expect(hit?.entry).toEqual(result.stored ? result.entry : undefined);
        expect((await hit!.readBody()).toString()).toBe('<html><body>hello</body></html>');
        const streamed: Buffer[] = [];
        for await (const chunk of hit!.openBody()) streamed.push(chunk as Buffer);
        expect(Buffer.concat(streamed).toString()).toBe('<html><body>hello</body></html>');
      });

      it("keeps the page's facts with the entry, hostile text included, and stores an entry without them", async () => {
        const facts = factsWith({ title: 'Ünïcode "quoted" \\ | title\u2028', description: '=cmd|x' });
        const result = await store.put(entry({ facts }), html('facts'));
        expect((await store.get(1, entry().url, 1))?.entry.facts).toEqual(facts);
        expect(result.stored && result.entry.facts).toEqual(facts);
        await store.put(entry({ url: 'https://www.example.com/plain' }), html('plain'));
        expect((await store.get(1, 'https://www.example.com/plain', 1))?.entry.facts).toBeUndefined();
      });

      it('keeps one entry per host + URL + dimension and answers undefined for unknown keys', async () => {
        await store.put(entry({ dimensionId: 1 }), html('d1'));
        await store.put(entry({ dimensionId: 2 }), html('d2'));
        await store.put(entry({ hostId: 2 }), html('h2'));
        expect(await bodyOf(1, entry().url, 1)).toContain('d1');
        expect(await bodyOf(1, entry().url, 2)).toContain('d2');
        expect(await bodyOf(2, entry().url, 1)).toContain('h2');
        expect(await store.get(1, 'https://www.example.com/other', 1)).toBeUndefined();
        expect(await store.get(1, entry().url, 3)).toBeUndefined();
      });

      it('answers every get with the entry stored at that moment, however often the key was read before', async () => {
        await store.put(entry(), html('first'));
        for (let i = 0; i < 3; i += 1) expect(await bodyOf()).toContain('first');
        const second = await store.put(entry({ createdAt: T + 1, headers: { 'content-type': 'text/html', 'content-language': 'de' } }), html('second'));
        const hit = await store.get(1, entry().url, 1);
        expect(hit?.entry).toEqual(second.stored ? second.entry : undefined);
        expect(await bodyOf()).toContain('second');
        await store.put(entry({ createdAt: T }), html('first again'));
        expect((await store.get(1, entry().url, 1))?.entry.headers).toEqual(entry().headers);
        await store.invalidate(1, [entry().url], [1]);
        expect(await store.get(1, entry().url, 1)).toBeUndefined();
      });

      it('keeps URLs with the field separator apart', async () => {
        await store.put(entry({ url: 'https://a.test/x|1' }), html('one'));
        await store.put(entry({ url: 'https://a.test/x|2' }), html('two'));
        expect(await bodyOf(1, 'https://a.test/x|1')).toContain('one');
        expect(await bodyOf(1, 'https://a.test/x|2')).toContain('two');
      });

      it('serves the old entry while a new one is being written, and the old body stays readable for a reader that already had it', async () => {
        await store.put(entry(), html('old'));
        const before = await store.get(1, entry().url, 1);
        const big = Buffer.alloc(4 * 1024 * 1024, 'n');
        const writing = store.put(entry({ createdAt: T + 1 }), big);
        // The put is still writing its body: the old entry is what readers get.
        const during = await store.get(1, entry().url, 1);
        expect(during?.entry.bodyPath).toBe(before?.entry.bodyPath);
        expect((await during!.readBody()).toString()).toContain('old');
        await writing;
        const after = await store.get(1, entry().url, 1);
        expect(after?.entry.bytes).toBe(big.length);
        expect((await after!.readBody()).equals(big)).toBe(true);
      });

      it('stores a redirect without a body; refuses any other empty body and writes nothing', async () => {
        await expect(store.put(entry({ kind: 'bypass' }), Buffer.alloc(0))).rejects.toThrow(/empty body/);
        await expect(store.put(entry({ statusCode: 301, headers: {} }), Buffer.alloc(0))).rejects.toThrow(/empty body/);
        expect(await store.get(1, entry().url, 1)).toBeUndefined();
        const redirect = entry({ kind: 'bypass', statusCode: 301, headers: { location: 'https://www.example.com/new' } });
        expect((await store.put(redirect, Buffer.alloc(0))).stored).toBe(true);
        const hit = await store.get(1, entry().url, 1);
        expect(hit?.entry).toMatchObject({ statusCode: 301, headers: { location: 'https://www.example.com/new' }, bytes: 0 });
      });

      it('rejects malformed entries', async () => {
        await expect(store.put(entry({ hostId: 0 }), html('x'))).rejects.toThrow(/invalid cache store call/);
        await expect(store.put(entry({ kind: 'other' as never }), html('x'))).rejects.toThrow(/invalid cache store call/);
        await expect(store.put(entry({ statusCode: 99 }), html('x'))).rejects.toThrow(/invalid cache store call/);
        await expect(store.put(entry({ expiresAt: Number.NaN }), html('x'))).rejects.toThrow(/invalid cache store call/);
      });
    });

    describe('render-wins', () => {
      it('keeps a fresh render against a bypass', async () => {
        await store.put(entry({ kind: 'render', expiresAt: T + HOUR }), html('render'));
        expect(await store.put(entry({ kind: 'bypass', createdAt: T + HOUR - 1 }), html('bypass'))).toEqual({ stored: false, reason: 'render-wins' });
        expect(await bodyOf()).toContain('render');
        expect((await store.get(1, entry().url, 1))?.entry.kind).toBe('render');
      });

      it('lets a bypass replace a render that has expired', async () => {
        await store.put(entry({ kind: 'render', expiresAt: T + HOUR }), html('render'));
        expect((await store.put(entry({ kind: 'bypass', createdAt: T + HOUR }), html('bypass'))).stored).toBe(true);
        expect(await bodyOf()).toContain('bypass');
      });

      it('lets a render replace a bypass, and a render replace a fresh render', async () => {
        await store.put(entry({ kind: 'bypass' }), html('bypass'));
        expect((await store.put(entry({ kind: 'render', createdAt: T + 1 }), html('render-1'))).stored).toBe(true);
        expect((await store.put(entry({ kind: 'render', createdAt: T + 2 }), html('render-2'))).stored).toBe(true);
        expect(await bodyOf()).toContain('render-2');
      });

      it('never lets a bypass racing a render replace it, whichever switches first', async () => {
        const [render, bypass] = await Promise.all([
          store.put(entry({ kind: 'render', createdAt: T }), html('render')),
          store.put(entry({ kind: 'bypass', createdAt: T + 1 }), html('bypass')),
        ]);
        expect(render.stored).toBe(true);
        expect(bypass.stored ? 'bypass switched first' : bypass.reason).toMatch(/render-wins|bypass switched first/);
        expect((await store.get(1, entry().url, 1))?.entry.kind).toBe('render');
        expect(await bodyOf()).toContain('render');
      });

      it('lets a bypass replace a bypass', async () => {
        await store.put(entry({ kind: 'bypass' }), html('one'));
        expect((await store.put(entry({ kind: 'bypass', createdAt: T + 1 }), html('two'))).stored).toBe(true);
        expect(await bodyOf()).toContain('two');
      });
    });

    describe('invalidate', () => {
      it('counts only entries that existed, across dimensions, and drops them at once', async () => {
        const [a, b] = ['https://a.test/1', 'https://a.test/2'];
        await store.put(entry({ url: a, dimensionId: 1 }), html('a1'));
        await store.put(entry({ url: a, dimensionId: 2 }), html('a2'));
        await store.put(entry({ url: b, dimensionId: 2 }), html('b2'));
        await store.put(entry({ url: a, dimensionId: 1, hostId: 2 }), html('other host'));
        const result = await store.invalidate(1, [a, b, 'https://a.test/never', a], [1, 2, 3]);
        expect(result).toEqual({ applied: true, value: 3 });
        expect(await store.get(1, a, 1)).toBeUndefined();
        expect(await store.get(1, a, 2)).toBeUndefined();
        expect(await store.get(1, b, 2)).toBeUndefined();
        expect(await bodyOf(2, a, 1)).toContain('other host');
        expect((await store.invalidate(1, [a, b], [1, 2, 3])).value).toBe(0);
      });

      it('drops only the named dimensions; [] drops nothing', async () => {
        await store.put(entry({ dimensionId: 1 }), html('d1'));
        await store.put(entry({ dimensionId: 2 }), html('d2'));
        expect((await store.invalidate(1, [entry().url], [])).value).toBe(0);
        expect((await store.invalidate(1, [entry().url], [2])).value).toBe(1);
        expect(await bodyOf(1, entry().url, 1)).toContain('d1');
      });

      it('removes the body files in the background, also of replaced entries', async () => {
        const first = await store.put(entry(), html('first'));
        const second = await store.put(entry({ createdAt: T + 1 }), html('second'));
        const [firstPath, secondPath] = [first, second].map((r) => (r.stored ? r.entry.bodyPath : ''));
        await eventually(async () => !(await exists(firstPath)), 'removal of the replaced body');
        expect(await exists(secondPath)).toBe(true);
        await store.invalidate(1, [entry().url], [1]);
        await eventually(async () => !(await exists(secondPath)), 'removal of the invalidated body');
      });

      it('keeps a replaced body readable during the grace period, even against an orphan sweep, and removes it on close', async () => {
        // The sweep judges every body old: only the removal grace period keeps the replaced one.
        const { store: graceful, objects: graceObjects } = await factory({ bodyRemovalDelayMs: 60_000, orphanSweep: { intervalMs: 0, graceMs: 0, clock: () => Date.now() + HOUR } });
        await graceful.put(entry(), html('old'));
        const old = await graceful.get(1, entry().url, 1);
        await graceful.put(entry({ createdAt: T + 1 }), html('new'));
        await graceful.put(entry({ dimensionId: 2 }), html('dropped'));
        const dropped = await graceful.get(1, entry().url, 2);
        await graceful.invalidate(1, [entry().url], [2]);
        expect(await graceful.sweepOrphans()).toEqual({ listed: 3, removed: 0 });
        expect((await old!.readBody()).toString()).toContain('old');
        expect((await dropped!.readBody()).toString()).toContain('dropped');
        await graceful.close();
        expect(await exists(old!.entry.bodyPath, graceObjects)).toBe(false);
      });

      it('answers a reader whose body was removed meanwhile with CacheBodyGoneError', async () => {
        await store.put(entry(), html('x'));
        const hit = await store.get(1, entry().url, 1);
        await store.invalidate(1, [entry().url], [1]);
        await eventually(async () => !(await exists(hit!.entry.bodyPath)), 'removal of the body');
        await expect(hit!.readBody()).rejects.toMatchObject({ name: 'CacheBodyGoneError' });
      });
    });

    describeMetadata('listing entries', () => {
      const site = (path: string) => `https://a.test/${path}`;
      const seed = async (paths: readonly string[], dimensionIds: readonly number[] = [1]) => {
        for (const path of paths) for (const dimensionId of dimensionIds) await store.put(entry({ url: site(path), dimensionId }), html(path));
      };
      const keys = (entries: readonly { url: string; dimensionId: number }[]) => entries.map((e) => `${e.url.replace('https://a.test/', '')}#${e.dimensionId}`);

      it('lists the entries under a URL prefix by URL then dimension, with their metadata and the total, page by page', async () => {
        await seed(['b/2', 'b/1', 'b', 'b?x=1', 'bz', 'a/1', 'c'], [10, 2]);
        const first = await store.listEntries(1, { urlPrefix: site('b') }, 0, 5);
        expect(first.total).toBe(10);
        expect(keys(first.entries)).toEqual(['b#2', 'b#10', 'b/1#2', 'b/1#10', 'b/2#2']);
        expect(first.entries[0]).toEqual((await store.get(1, site('b'), 2))!.entry);
        expect(first.entries[0]).toMatchObject({ kind: 'render', statusCode: 200, bytes: html('b').length, createdAt: T, expiresAt: T + HOUR, durationMs: 120 });
        expect(keys((await store.listEntries(1, { urlPrefix: site('b') }, 5, 5)).entries)).toEqual(['b/2#10', 'b?x=1#2', 'b?x=1#10', 'bz#2', 'bz#10']);
        expect(await store.listEntries(1, { urlPrefix: site('b') }, 10, 5)).toEqual({ entries: [], total: 10 });
        expect((await store.listEntries(1, { urlPrefix: site('b/') }, 0, 100)).total).toBe(4);
        expect((await store.listEntries(1, {}, 0, 0)).total).toBe(14);
        expect(await store.listEntries(1, { urlPrefix: site('nothing') }, 0, 10)).toEqual({ entries: [], total: 0 });
      });

      it('keeps a filter to the URLs it accepts, paging and counting only those', async () => {
        await seed(['p/1', 'p/2', 'p/3', 'p/4', 'q/1'], [1, 2]);
        const even = (url: string) => /[24]$/.test(url);
        const page1 = await store.listEntries(1, { urlFilter: even }, 0, 3);
        expect(page1.total).toBe(4);
        expect(keys(page1.entries)).toEqual(['p/2#1', 'p/2#2', 'p/4#1']);
        expect(keys((await store.listEntries(1, { urlFilter: even }, 3, 3)).entries)).toEqual(['p/4#2']);
        expect((await store.listEntries(1, { urlPrefix: site('q'), urlFilter: (url) => url.endsWith('1') }, 0, 10)).total).toBe(2);
      });

      it("never lists another host's entries", async () => {
        await store.put(entry({ hostId: 2, url: site('other') }), html('other'));
        await seed(['mine']);
        expect(keys((await store.listEntries(1, { urlPrefix: site('') }, 0, 10)).entries)).toEqual(['mine#1']);
        expect(await store.listEntries(3, {}, 0, 10)).toEqual({ entries: [], total: 0 });
        expect(await store.summarize(3, {}, 10)).toEqual({ entries: 0, urls: 0, firstUrls: [] });
      });

      it('follows puts and invalidations: a replaced entry is listed once, with its new metadata; a dropped one goes', async () => {
        await seed(['r/1', 'r/2'], [1, 2]);
        await store.put(entry({ url: site('r/1'), createdAt: T + 5, statusCode: 203 }), html('again'));
        await store.invalidate(1, [site('r/2')], [2]);
        const listed = await store.listEntries(1, { urlPrefix: site('r/') }, 0, 10);
        expect(keys(listed.entries)).toEqual(['r/1#1', 'r/1#2', 'r/2#1']);
        expect(listed.entries[0]).toMatchObject({ statusCode: 203, createdAt: T + 5 });
        await store.invalidate(1, [site('r/1'), site('r/2')], [1, 2]);
        expect(await store.listEntries(1, {}, 0, 10)).toEqual({ entries: [], total: 0 });
        await seed(['r/1']);
        expect((await store.listEntries(1, {}, 0, 10)).total).toBe(1);
      });

      it('summarizes a selection: entries, distinct URLs and its first URLs', async () => {
        await seed(['s/1', 's/2', 's/3', 't/1'], [1, 2]);
        await store.invalidate(1, [site('s/3')], [2]);
        expect(await store.summarize(1, { urlPrefix: site('s/') }, 2)).toEqual({ entries: 5, urls: 3, firstUrls: [site('s/1'), site('s/2')] });
        expect(await store.summarize(1, { urlFilter: (url) => url.endsWith('/1') }, 10)).toEqual({ entries: 4, urls: 2, firstUrls: [site('s/1'), site('t/1')] });
        expect(await store.summarize(1, { urlPrefix: site('s/'), urlFilter: () => false }, 10)).toEqual({ entries: 0, urls: 0, firstUrls: [] });
      });

      it('walks thousands of keys of a host, filtered, in order', async () => {
        const many = Array.from({ length: 2_500 }, (_, i) => `m/${String(i).padStart(5, '0')}`);
        await Promise.all(many.map((path) => store.put(entry({ url: site(path) }), html('m'))));
        const sevens = (url: string) => url.endsWith('7');
        expect(await store.summarize(1, { urlFilter: sevens }, 1)).toEqual({ entries: 250, urls: 250, firstUrls: [site('m/00007')] });
        const last = await store.listEntries(1, { urlPrefix: site('m/'), urlFilter: sevens }, 249, 10);
        expect({ total: last.total, keys: keys(last.entries) }).toEqual({ total: 250, keys: ['m/02497#1'] });
        expect(keys((await store.listEntries(1, { urlPrefix: site('m/01') }, 998, 5)).entries)).toEqual(['m/01998#1', 'm/01999#1']);
      });

      it('refuses a malformed page', async () => {
        await expect(store.listEntries(1, {}, -1, 10)).rejects.toThrow(/invalid cache store call/);
        await expect(store.listEntries(1, {}, 0, 1.5)).rejects.toThrow(/invalid cache store call/);
      });
    });

    describeMetadata('projection positions', () => {
      it('applies a position once and answers the recorded count on redelivery', async () => {
        await store.put(entry({ dimensionId: 1 }), html('1'));
        await store.put(entry({ dimensionId: 2 }), html('2'));
        expect(await store.invalidate(1, [entry().url], [1, 2], pos(5))).toEqual({ applied: true, value: 2 });
        await store.put(entry({ dimensionId: 1, createdAt: T + 1 }), html('again'));
        expect(await store.invalidate(1, [entry().url], [1, 2], pos(5))).toEqual({ applied: false, value: 2 });
        expect(await bodyOf()).toContain('again');
        expect(await store.resultOf('ev-5')).toBe(2);
        expect(await store.resultOf('never-seen')).toBeUndefined();
      });

      it('passes the same event stored again at a later offset (a producer retry), moving the checkpoint past it', async () => {
        await store.put(entry(), html('first'));
        expect(await store.invalidate(1, [entry().url], [1], pos(5, 'inv-1'))).toEqual({ applied: true, value: 1 });
        await store.put(entry({ createdAt: T + 1 }), html('rendered since'));
        expect(await store.invalidate(1, [entry().url], [1], pos(8, 'inv-1'))).toEqual({ applied: false, value: 1 });
        expect(await bodyOf()).toContain('rendered since');
        expect(await store.nextOffset('bpc.queue.v1:0')).toBe('9');
      });

      it('advance moves a stream past events that changed nothing, never back', async () => {
        await store.advance('queue:7', '41');
        expect(await store.nextOffset('queue:7')).toBe('42');
        await store.advance('queue:7', '9');
        expect(await store.nextOffset('queue:7')).toBe('42');
        expect((await store.invalidate(1, ['https://a.example/x'], [1], { stream: 'queue:7', offset: '30', eventId: 'old' })).applied).toBe(false);
      });

      it('skips any offset at or below the applied one, comparing offsets as numbers, per stream', async () => {
        expect(await store.nextOffset('bpc.queue.v1:0')).toBeUndefined();
        await store.invalidate(1, [entry().url], [1], pos(10));
        await store.put(entry(), html('x'));
        expect(await store.invalidate(1, [entry().url], [1], pos(9, 'unknown'))).toEqual({ applied: false, value: undefined });
        expect(await store.get(1, entry().url, 1)).toBeDefined();
        expect(await store.nextOffset('bpc.queue.v1:0')).toBe('11');
        await store.invalidate(1, [entry().url], [1], pos('9007199254740993', 'big', 'bpc.queue.v1:1'));
        expect(await store.nextOffset('bpc.queue.v1:1')).toBe('9007199254740994');
        expect((await store.invalidate(1, [entry().url], [1], pos(100))).applied).toBe(true);
        expect(await store.nextOffset('bpc.queue.v1:0')).toBe('101');
      });

      it('always applies invalidations without a position', async () => {
        await store.invalidate(1, [entry().url], [1], pos(50));
        await store.put(entry(), html('x'));
        expect(await store.invalidate(1, [entry().url], [1])).toEqual({ applied: true, value: 1 });
        expect(await store.nextOffset('bpc.queue.v1:0')).toBe('51');
      });

      it('rejects a malformed offset before changing anything', async () => {
        await store.put(entry(), html('x'));
        await expect(store.invalidate(1, [entry().url], [1], pos('01'))).rejects.toThrow(/offset/);
        expect(await store.get(1, entry().url, 1)).toBeDefined();
      });
    });

    describe('no orphan bodies', () => {
      const MINUTE = 60_000;
      /** Body paths under the cache's prefix, relative to it (what `bodyPath` says). */
      const storedBodies = async (): Promise<string[]> => {
        const found: string[] = [];
        for await (const object of objects.list('cache/')) if (object.key.endsWith('.body')) found.push(object.key.slice('cache/'.length));
        return found.sort();
      };
      const liveBodies = async (keys: readonly [string, number][]): Promise<string[]> => {
        const paths: string[] = [];
        for (const [url, dimensionId] of keys) {
          const hit = await store.get(1, url, dimensionId);
          if (hit) paths.push(hit.entry.bodyPath);
        }
        return paths.sort();
      };
      /** A body as a put killed between its body write and its switch leaves it: a fresh path of the adapter's own form, no entry naming it. */
      const orphanLike = (bodyPath: string, random: string): string => bodyPath.replace(/\.[0-9a-f]{8}\./, `.${random}.`);

      it('keeps only the bodies of live entries once the grace period has passed, after puts, replacements and invalidations', async () => {
        const url = (i: number) => `https://www.example.com/churn/${i}`;
        for (let round = 0; round < 3; round++) {
          for (let i = 0; i < 6; i++) await store.put(entry({ url: url(i), createdAt: T + round }), html(`page ${i} round ${round}`));
        }
        await store.put(entry({ url: url(0), dimensionId: 2 }), html('dimension 2'));
        await store.invalidate(1, [url(1), url(2)], [1, 2]);
        await store.invalidate(1, [url(3)], [1], pos(1));
        // A bypass refused by render-wins leaves nothing behind either.
        expect((await store.put(entry({ url: url(4), kind: 'bypass', createdAt: T + 3 }), html('refused'))).stored).toBe(false);
        const keys: [string, number][] = [...Array.from({ length: 6 }, (_, i): [string, number] => [url(i), 1]), [url(0), 2]];
        const live = await liveBodies(keys);
        expect(live).toHaveLength(4);
        await eventually(async () => (await storedBodies()).length === live.length, 'removal of every replaced and invalidated body');
        expect(await storedBodies()).toEqual(live);
        sweepAhead = 10 * MINUTE;
        expect(await store.sweepOrphans()).toEqual({ listed: 4, removed: 0 });
        expect(await storedBodies()).toEqual(live);
      });

      it('collects a body written without its entry (a crash between the two writes) once it is older than the grace period, never a live one', async () => {
        const stored = await store.put(entry(), html('live'));
        const livePath = stored.stored ? stored.entry.bodyPath : '';
        const orphan = orphanLike(livePath, 'deadbeef');
        expect(orphan).not.toBe(livePath);
        await objects.put(`cache/${orphan}`, html('orphan'));
        expect(await storedBodies()).toEqual([livePath, orphan].sort());

        // Young: it may be a put in flight.
        expect(await store.sweepOrphans()).toEqual({ listed: 2, removed: 0 });
        sweepAhead = 2 * MINUTE;
        expect(await store.sweepOrphans()).toEqual({ listed: 2, removed: 1 });
        expect(await storedBodies()).toEqual([livePath]);
        expect(await bodyOf()).toContain('live');
      });

      it('sweeps on its own every interval', async () => {
        const { store: sweeping, objects: sweptObjects } = await factory({ bodyRemovalDelayMs: 0, orphanSweep: { intervalMs: 20, graceMs: 0 } });
        try {
          const stored = await sweeping.put(entry(), html('live'));
          const livePath = stored.stored ? stored.entry.bodyPath : '';
          await sweptObjects.put(`cache/${orphanLike(livePath, 'feedf00d')}`, html('orphan'));
          await eventually(async () => (await sweptObjects.stat(`cache/${orphanLike(livePath, 'feedf00d')}`)) === undefined, 'the periodic sweep');
          expect(await sweptObjects.stat(`cache/${livePath}`)).toBeDefined();
        } finally {
          await sweeping.close();
        }
      });

      it('never collects the body of a put in flight, however old the sweep judges it: the put lands readable', async () => {
        // Every body looks older than the grace period to the sweep: only the reference check stands between it and a put's body.
        sweepAhead = 10 * MINUTE;
        const url = (i: number) => `https://www.example.com/racing/${i}`;
        for (let round = 0; round < 5; round++) {
          await Promise.all([...Array.from({ length: 4 }, (_, i) => store.put(entry({ url: url(i), createdAt: T + round }), html(`page ${i} round ${round}`))), store.sweepOrphans(), store.sweepOrphans()]);
        }
        for (let i = 0; i < 4; i++) expect(await bodyOf(1, url(i))).toBe(html(`page ${i} round 4`).toString());
        await store.sweepOrphans();
        const keys = Array.from({ length: 4 }, (_, i): [string, number] => [url(i), 1]);
        expect(await storedBodies()).toEqual(await liveBodies(keys));
      });
    });

    it('answers readiness checks', async () => {
      await expect(store.check()).resolves.toBeUndefined();
    });
  });
}
