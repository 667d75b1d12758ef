import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RedisUnavailableError } from '@bpc/redis-support';
import { createConnection, createServer, type Socket } from 'node:net';
import Redis from 'ioredis';
import { startRedis, testEngines, until } from '@bpc/testing';
import { describeCacheStoreContract } from './cache-store.contract-spec';
import { FileObjectStore } from '@bpc/object-store';
import { FileCacheStore } from './file-cache-store';
import { RedisCacheStore } from './redis-cache-store';

const directories: string[] = [];
function tempDirectory(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'bpc-cache-'));
  directories.push(directory);
  return directory;
}
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

// Bodies as files under a data directory, with the cache's prefix: the layout of a standalone data_dir (bodies and sidecars in data_dir/cache).
describeCacheStoreContract('file', async ({ bodyRemovalDelayMs, orphanSweep }) => {
  const dataDir = tempDirectory();
  const objects = new FileObjectStore(dataDir);
  return { store: await FileCacheStore.open({ directory: path.join(dataDir, 'cache'), objects, bodyRemovalDelayMs, orphanSweep }), objects };
});

// Every test gets its own hash tag on the shared redis-server, so tests never see each other's keys.
describeCacheStoreContract('redis', async ({ bodyRemovalDelayMs, orphanSweep }) => {
  const objects = new FileObjectStore(tempDirectory());
  const store = new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix: `test-${randomUUID()}`, objects, bodyRemovalDelayMs, orphanSweep });
  return { store, objects };
});

describe('RedisCacheStore entry index', () => {
  const t = Date.now();
  const page = (path: string, dimensionId = 1) => ({ hostId: 1, url: `https://www.example.com/${path}`, dimensionId, kind: 'render' as const, statusCode: 200, headers: {}, createdAt: t, expiresAt: t + 60_000, durationMs: 5 });
  let admin: Redis;
  let store: RedisCacheStore;
  let keyPrefix: string;
  beforeEach(() => {
    admin = new Redis(testEngines().redisUrl);
    keyPrefix = `test-${randomUUID()}`;
    store = new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix, objects: new FileObjectStore(tempDirectory()), walkChunk: 3 });
  });
  afterEach(async () => {
    await store.close();
    admin.disconnect();
  });

  it('walks a filtered selection over several round trips without losing or repeating a key', async () => {
    for (const path of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) for (const dimensionId of [1, 2]) await store.put(page(path, dimensionId), Buffer.from('<p>x</p>'));
    const notC = (url: string) => !url.endsWith('/c');
    expect(await store.summarize(1, { urlFilter: notC }, 100)).toMatchObject({ entries: 12, urls: 6 });
    const listed = await store.listEntries(1, { urlFilter: notC }, 1, 11);
    expect(listed.entries.map((e) => `${e.url.slice(-1)}${e.dimensionId}`)).toEqual(['a2', 'b1', 'b2', 'd1', 'd2', 'e1', 'e2', 'f1', 'f2', 'g1', 'g2']);
  });

  it('brings an index that disagrees with the entries in line when a listing finds the counts differ (entries from before the index, members of gone entries)', async () => {
    await store.put(page('x'), Buffer.from('<p>x</p>'));
    await store.put(page('y'), Buffer.from('<p>y</p>'));
    await store.put(page('z'), Buffer.from('<p>z</p>'));
    const index = `{${keyPrefix}}:cache:u:1`;
    expect(await admin.zrem(index, `${page('x').url}\u00000000000001`, `${page('z').url}\u00000000000001`)).toBe(2);
    await admin.zadd(index, 0, `${page('gone').url}\u00000000000001`);
    expect((await store.listEntries(1, {}, 0, 10)).entries.map((e) => e.url)).toEqual([page('x').url, page('y').url, page('z').url]);
    expect(await admin.zcard(index)).toBe(3);
    expect(await store.summarize(1, { urlPrefix: page('y').url }, 10)).toEqual({ entries: 1, urls: 1, firstUrls: [page('y').url] });
  });
});

describe('RedisCacheStore reads (auto-pipelined)', () => {
  it('answers concurrent reads, fails them fast while Redis is down, and reads again once it is back', async () => {
    const redis = await startRedis();
    const store = new RedisCacheStore({ url: redis.url, keyPrefix: `test-${randomUUID()}`, objects: new FileObjectStore(tempDirectory()) });
    const t = Date.now();
    const entry = { hostId: 1, url: 'https://www.example.com/p', dimensionId: 1, kind: 'render' as const, statusCode: 200, headers: { 'content-type': 'text/html' }, createdAt: t, expiresAt: t + 60_000, durationMs: 5 };
    try {
      await store.put(entry, Buffer.from('<html>p</html>'));
      const reads = await Promise.all(Array.from({ length: 200 }, (_, i) => store.get(1, i % 2 ? entry.url : `${entry.url}?missing=${i}`, 1)));
      expect(reads.filter((hit) => hit?.entry.bodyPath).length).toBe(100);
      expect(reads.filter((hit) => hit === undefined).length).toBe(100);

      await redis.stop();
      const failed = await Promise.allSettled(Array.from({ length: 50 }, () => store.get(1, entry.url, 1)));
      expect(failed.every((r) => r.status === 'rejected' && r.reason instanceof RedisUnavailableError)).toBe(true);
      // Fast: none of them waited for an answer until the command timeout.
      expect(failed.map((r) => String((r as PromiseRejectedResult).reason.cause?.message ?? ''))).not.toContainEqual(expect.stringMatching(/timed out/i));

      const back = await startRedis(redis.port);
      try {
        // The client reconnects in the background; the restarted server starts empty.
        await until(() => store.put(entry, Buffer.from('<html>p</html>')).then(() => true, () => false), { timeoutMs: 10_000, what: 'a put once Redis is back' });
        const again = await Promise.all(Array.from({ length: 20 }, () => store.get(1, entry.url, 1)));
        expect(again.map((hit) => hit?.entry.url)).toEqual(Array(20).fill(entry.url));
      } finally {
        await store.close();
        await back.stop();
      }
    } catch (error) {
      await store.close().catch(() => undefined);
      await redis.stop().catch(() => undefined);
      throw error;
    }
  }, 30_000);
});

describe('RedisCacheStore local entries (replicas on one Redis)', () => {
  const t = Date.now();
  const page = { hostId: 1, url: 'https://www.example.com/p', dimensionId: 1, kind: 'render' as const, statusCode: 200, headers: { 'content-type': 'text/html' }, createdAt: t, expiresAt: t + 60_000, durationMs: 5 };
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let admin: Redis;
  let writer: RedisCacheStore;
  let reader: RedisCacheStore;
  let keyPrefix: string;
  let directory: string;

  beforeEach(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
    keyPrefix = `test-${randomUUID()}`;
    directory = tempDirectory();
    writer = new RedisCacheStore({ url: redis.url, keyPrefix, objects: new FileObjectStore(directory) });
    reader = new RedisCacheStore({ url: redis.url, keyPrefix, objects: new FileObjectStore(directory) });
  });
  afterEach(async () => {
    await Promise.all([writer.close(), reader.close()]);
    admin.disconnect();
    await redis.stop();
  });

  const hgets = async (): Promise<number> => Number(/cmdstat_hget:calls=(\d+)/.exec(await admin.info('commandstats'))?.[1] ?? 0);
  /** Waits until `store` (the reader unless said) answers 20 reads of the page without asking Redis. */
  const servedLocally = (store = reader): Promise<void> =>
    until(
      async () => {
        const before = await hgets();
        for (let i = 0; i < 20; i += 1) await store.get(page.hostId, page.url, page.dimensionId);
        return (await hgets()) === before;
      },
      { timeoutMs: 5_000, intervalMs: 20, what: 'reads of a followed entry answered without Redis' },
    );
  const readerSees = (accept: (statusCode: number | undefined) => boolean, what: string, store = reader): Promise<number | undefined> =>
    until(async () => (await store.get(page.hostId, page.url, page.dimensionId))?.entry.statusCode, accept, { timeoutMs: 5_000, intervalMs: 5, what });

  it("keeps read entries in the replica, and every other replica's put and invalidation reaches it", async () => {
    await writer.put(page, Buffer.from('<html>v1</html>'));
    await servedLocally();
    expect((await (await reader.get(1, page.url, 1))!.readBody()).toString()).toBe('<html>v1</html>');

    await writer.put({ ...page, statusCode: 203, createdAt: t + 1 }, Buffer.from('<html>v2</html>'));
    await readerSees((s) => s === 203, "the writer's put");
    expect((await (await reader.get(1, page.url, 1))!.readBody()).toString()).toBe('<html>v2</html>');
    await servedLocally();

    await writer.invalidate(1, [page.url], [1]);
    await readerSees((s) => s === undefined, "the writer's invalidation");
  });

  it("drops a replica's copy at once on its own writes", async () => {
    await reader.put(page, Buffer.from('<html>v1</html>'));
    await servedLocally();
    await reader.put({ ...page, statusCode: 203, createdAt: t + 1 }, Buffer.from('<html>v2</html>'));
    expect((await reader.get(1, page.url, 1))?.entry.statusCode).toBe(203);
    await reader.invalidate(1, [page.url], [1]);
    expect(await reader.get(1, page.url, 1)).toBeUndefined();
  });

  /** Changes the stored page's status code directly in Redis, as no cache store would (and so unreported while tracking is down). */
  const changeBehindItsBack = async (statusCode: number): Promise<void> => {
    const [key, field] = [(await admin.keys('*cache:e:1'))[0], `1|${page.url}`];
    const stored = (await admin.hget(key, field))!;
    await admin.hset(key, field, stored.replace(/"statusCode":\d+/, `"statusCode":${statusCode}`));
  };
  /** Kills the tracking connection, changes the page behind the reader's back, and waits until the reader serves the change. */
  const changedWhileUntracked = async (): Promise<void> => {
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await changeBehindItsBack(299);
    await readerSees((s) => s === 299, 'the change made while tracking was down');
  };

  it('stops serving its copies as soon as the tracking connection drops', async () => {
    await writer.put(page, Buffer.from('<html>v1</html>'));
    await servedLocally();
    // A password keeps the tracking connection from coming back (the stores' own connections are already in).
    await admin.config('SET', 'requirepass', 'secret');
    await changedWhileUntracked();
    await admin.config('SET', 'requirepass', '');
  });

  it('stops serving its copies when the tracking connection goes silent without closing', async () => {
    const proxy = await silencingProxy(redis.port);
    const behind = new RedisCacheStore({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix, objects: new FileObjectStore(directory) });
    try {
      await writer.put(page, Buffer.from('<html>v1</html>'));
      await servedLocally(behind);
      // The tracking connection stays open but carries nothing more (a NAT that forgot it, say): no report reaches the reader.
      proxy.silenceSubscribers();
      await writer.put({ ...page, statusCode: 203, createdAt: t + 1 }, Buffer.from('<html>v2</html>'));
      await readerSees((s) => s === 203, 'the put made while tracking was silent', behind);
    } finally {
      await behind.close();
      proxy.close();
    }
  });

  it('follows again once the tracking connection is back', async () => {
    await writer.put(page, Buffer.from('<html>v1</html>'));
    await servedLocally();
    await changedWhileUntracked();
    await servedLocally();
    await writer.invalidate(1, [page.url], [1]);
    await readerSees((s) => s === undefined, 'the invalidation after tracking came back');
  });

  it('forgets every copy when Redis is flushed', async () => {
    await writer.put(page, Buffer.from('<html>v1</html>'));
    await servedLocally();
    await admin.flushall();
    await readerSees((s) => s === undefined, 'the flush');
  });

  it('asks Redis every time with localEntries: 0', async () => {
    const direct = new RedisCacheStore({ url: redis.url, keyPrefix: `test-${randomUUID()}`, objects: new FileObjectStore(tempDirectory()), localEntries: 0 });
    try {
      await direct.put(page, Buffer.from('<html>v1</html>'));
      await direct.get(1, page.url, 1);
      const before = await hgets();
      for (let i = 0; i < 10; i += 1) await direct.get(1, page.url, 1);
      expect((await hgets()) - before).toBe(10);
      // A store that follows opens its tracking connection at its first read: once the reader's is there, the direct store's would be too.
      await reader.get(1, page.url, 1);
      await until(async () => /cmd=subscribe/.test(String(await admin.client('LIST'))), { what: "the reader's tracking connection" });
      expect(String(await admin.client('LIST')).match(/cmd=subscribe/g)).toHaveLength(1);
    } finally {
      await direct.close();
    }
  });
});

/** A TCP proxy to Redis that can silence, without closing them, the connections that subscribed (the tracking ones). */
async function silencingProxy(redisPort: number): Promise<{ port: number; silenceSubscribers(): void; close(): void }> {
  const sockets: Socket[] = [];
  let silenced = false;
  const server = createServer((client) => {
    const upstream = createConnection(redisPort, '127.0.0.1');
    sockets.push(client, upstream);
    let subscriber = false;
    client.on('data', (chunk: Buffer) => {
      subscriber ||= /subscribe/i.test(chunk.toString('latin1'));
      if (!(silenced && subscriber)) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!(silenced && subscriber)) client.write(chunk);
    });
    const end = () => [client, upstream].forEach((s) => s.destroy());
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    silenceSubscribers: () => (silenced = true),
    close: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}

describe('RedisCacheStore orphan sweep (replicas on one Redis and one object store)', () => {
  const t = Date.now();
  const page = (i: number) => ({ hostId: 7, url: `https://www.example.com/${i}`, dimensionId: 1, kind: 'render' as const, statusCode: 200, headers: {}, createdAt: t, expiresAt: t + 60_000, durationMs: 5 });
  const bodies = async (objects: FileObjectStore): Promise<string[]> => {
    const found: string[] = [];
    for await (const object of objects.list('cache/')) found.push(object.key.slice('cache/'.length));
    return found.sort();
  };

  it('removes each orphan once with two replicas sweeping at once, leaves live bodies and bodies of earlier versions alone', async () => {
    const objects = new FileObjectStore(tempDirectory());
    const keyPrefix = `test-${randomUUID()}`;
    // Every body looks an hour old to the sweeps.
    const orphanSweep = { intervalMs: 0, graceMs: 60_000, clock: () => Date.now() + 3_600_000 };
    const [a, b] = [new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix, objects, orphanSweep }), new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix, objects, orphanSweep })];
    try {
      const live: string[] = [];
      for (let i = 0; i < 4; i++) {
        const stored = await (i % 2 ? a : b).put(page(i), Buffer.from(`<p>${i}</p>`));
        if (stored.stored) live.push(stored.entry.bodyPath);
      }
      const orphans = live.map((bodyPath, i) => bodyPath.replace(/\.[0-9a-f]{8}\./, `.0000000${i}.`));
      // Written by a version before the sweep: untracked, so never judged (its entry may be live, unknown to the body set).
      const earlier = live[0].replace(/\.[0-9a-f]{8}\.t\.body$/, '.00000009.body');
      for (const key of [...orphans, earlier]) await objects.put(`cache/${key}`, Buffer.from('orphan'));

      const [first, second] = await Promise.all([a.sweepOrphans(), b.sweepOrphans()]);
      expect(first.removed + second.removed).toBe(orphans.length);
      expect(await bodies(objects)).toEqual([...live, earlier].sort());
      for (let i = 0; i < 4; i++) expect((await (await a.get(7, page(i).url, 1))!.readBody()).toString()).toBe(`<p>${i}</p>`);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("bars a body the sweep claimed between a put's body write and its switch: the put writes another and lands readable", async () => {
    /** Runs a sweep of another replica right after the next body write, before the put's switch (a put slower than the grace period). */
    class SweptAfterWrite extends FileObjectStore {
      sweeper?: RedisCacheStore;
      override async put(key: string, body: Buffer): Promise<void> {
        await super.put(key, body);
        const sweeper = this.sweeper;
        this.sweeper = undefined;
        if (sweeper) expect(await sweeper.sweepOrphans()).toEqual({ listed: 1, removed: 1 });
      }
    }
    const objects = new SweptAfterWrite(tempDirectory());
    const keyPrefix = `test-${randomUUID()}`;
    const writer = new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix, objects });
    const sweeper = new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix, objects, orphanSweep: { intervalMs: 0, graceMs: 0, clock: () => Date.now() + 60_000 } });
    try {
      objects.sweeper = sweeper;
      const stored = await writer.put(page(1), Buffer.from('<p>1</p>'));
      expect(stored.stored).toBe(true);
      expect(await bodies(objects)).toEqual([stored.stored && stored.entry.bodyPath]);
      expect((await (await sweeper.get(7, page(1).url, 1))!.readBody()).toString()).toBe('<p>1</p>');
    } finally {
      await Promise.all([writer.close(), sweeper.close()]);
    }
  });
});
