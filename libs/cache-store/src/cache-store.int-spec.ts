import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RedisUnavailableError } from '@bpc/redis-support';
import { startRedis, testEngines } from '@bpc/testing';
import { describeCacheStoreContract } from './cache-store.contract';
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

describeCacheStoreContract('file', async ({ bodyRemovalDelayMs }) => {
  const directory = tempDirectory();
  return { store: await FileCacheStore.open({ directory, bodyRemovalDelayMs }), directory };
});

// Every test gets its own hash tag on the shared redis-server, so tests never see each other's keys.
describeCacheStoreContract('redis', async ({ bodyRemovalDelayMs }) => {
  const directory = tempDirectory();
  return { store: new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix: `test-${randomUUID()}`, directory, bodyRemovalDelayMs }), directory };
});

describe('RedisCacheStore reads (auto-pipelined)', () => {
  it('answers concurrent reads, fails them fast while Redis is down, and reads again once it is back', async () => {
    const redis = await startRedis();
    const store = new RedisCacheStore({ url: redis.url, keyPrefix: `test-${randomUUID()}`, directory: tempDirectory() });
    const t = Date.now();
    const entry = { hostId: 1, url: 'https://www.example.com/p', dimensionId: 1, kind: 'render' as const, statusCode: 200, headers: { 'content-type': 'text/html' }, createdAt: t, expiresAt: t + 60_000, durationMs: 5 };
    try {
      await store.put(entry, Buffer.from('<html>p</html>'));
      const reads = await Promise.all(Array.from({ length: 200 }, (_, i) => store.get(1, i % 2 ? entry.url : `${entry.url}?missing=${i}`, 1)));
      expect(reads.filter((hit) => hit?.entry.bodyPath).length).toBe(100);
      expect(reads.filter((hit) => hit === undefined).length).toBe(100);

      await redis.stop();
      const started = Date.now();
      const failed = await Promise.allSettled(Array.from({ length: 50 }, () => store.get(1, entry.url, 1)));
      expect(failed.every((r) => r.status === 'rejected' && r.reason instanceof RedisUnavailableError)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000);

      const back = await startRedis(redis.port);
      try {
        // The client reconnects in the background; the restarted server starts empty.
        const deadline = Date.now() + 10_000;
        let stored = false;
        while (!stored && Date.now() < deadline) {
          stored = await store.put(entry, Buffer.from('<html>p</html>')).then(() => true, () => false);
          if (!stored) await new Promise((r) => setTimeout(r, 50));
        }
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
