import { randomUUID } from 'node:crypto';
import { S3ObjectStore } from '@bpc/object-store';
import { startS3Server, testEngines, until, type RunningS3Server } from '@bpc/testing';
import { describeCacheStoreContract } from './cache-store.contract-spec';
import { RedisCacheStore } from './redis-cache-store';

/**
 * The cluster deployment with `adapters.object_store: s3`: metadata in Redis,
 * bodies in a bucket (s3rver, one server for the file). Every test gets its
 * own Redis hash tag and its own key prefix in the bucket. Listing and
 * projection positions (Redis only) run in cache-store.int-spec.ts.
 */
let s3: RunningS3Server;
const stores: S3ObjectStore[] = [];
const bucketStore = (): S3ObjectStore => {
  const objects = new S3ObjectStore({ bucket: s3.bucket, prefix: `test-${randomUUID()}`, endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3.credentials });
  stores.push(objects);
  return objects;
};

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await Promise.all(stores.map((objects) => objects.close()));
  await s3?.close();
});

describeCacheStoreContract(
  'redis + s3',
  async ({ bodyRemovalDelayMs, orphanSweep }) => {
    const objects = bucketStore();
    return { store: new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix: `test-${randomUUID()}`, objects, bodyRemovalDelayMs, orphanSweep }), objects };
  },
  'bodies',
);

describe('RedisCacheStore on S3, two replicas (two edges) writing the same pages', () => {
  it('after renders, replacements and invalidations from both and the removal grace, the bucket holds exactly the live entries\' bodies, each readable from either', async () => {
    const objects = bucketStore();
    const keyPrefix = `test-${randomUUID()}`;
    // A short removal grace stands for the 30 s one; the sweep's clock judges every body an hour old.
    const options = { url: testEngines().redisUrl, keyPrefix, objects, bodyRemovalDelayMs: 50, orphanSweep: { intervalMs: 0, graceMs: 60_000, clock: () => Date.now() + 3_600_000 } };
    const [a, b] = [new RedisCacheStore(options), new RedisCacheStore(options)];
    const t = Date.now();
    const url = (i: number) => `https://www.example.com/churn/${i}`;
    const entry = (i: number, round: number, dimensionId = 1) => ({ hostId: 1, url: url(i), dimensionId, kind: 'render' as const, statusCode: 200, headers: { 'content-type': 'text/html' }, createdAt: t + round, expiresAt: t + 3_600_000, durationMs: 5 });
    const stored = async (): Promise<string[]> => {
      const keys: string[] = [];
      for await (const object of objects.list('cache/')) keys.push(object.key.slice('cache/'.length));
      return keys.sort();
    };
    try {
      for (let round = 0; round < 4; round++) {
        // Both replicas write every page each round, at once: one of each pair wins, the other's body is replaced or refused.
        await Promise.all(Array.from({ length: 6 }, (_, i) => [a, b].map((store, s) => store.put(entry(i, round * 2 + s), Buffer.from(`<p>${i} round ${round} by ${s}</p>`)))).flat());
        await (round % 2 ? a : b).invalidate(1, [url(round)], [1]);
        await a.put(entry(round, round * 2 + 1, 2), Buffer.from(`<p>${round} mobile</p>`));
      }
      const live: string[] = [];
      for (let i = 0; i < 6; i++) {
        for (const dimensionId of [1, 2]) {
          const [fromA, fromB] = await Promise.all([a.get(1, url(i), dimensionId), b.get(1, url(i), dimensionId)]);
          expect(fromB?.entry.bodyPath).toBe(fromA?.entry.bodyPath);
          if (!fromA) continue;
          live.push(fromA.entry.bodyPath);
          // No entry points at a missing body, whichever replica reads it.
          expect((await fromB!.readBody()).toString()).toMatch(/^<p>\d/);
        }
      }
      // Desktop: every page but the one invalidated in the last round; mobile: the four written once each.
      expect(live.length).toBe(5 + 4);
      await until(async () => (await stored()).length === live.length, { timeoutMs: 5_000, what: 'removal of every replaced and invalidated body' });
      expect(await stored()).toEqual(live.sort());
      expect((await a.sweepOrphans()).removed + (await b.sweepOrphans()).removed).toBe(0);
      expect(await stored()).toEqual(live.sort());
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
