import { randomUUID } from 'node:crypto';
import { testEngines } from '@bpc/testing';
import { describeRateLimitStoreContract } from './rate-limit-store.contract-spec';
import { RedisRateLimitStore } from './redis-rate-limit-store';

// Every test gets its own hash tag on the shared redis-server, so tests never see each other's keys.
describeRateLimitStoreContract('redis', async () => new RedisRateLimitStore({ url: testEngines().redisUrl, keyPrefix: `test-${randomUUID()}` }));

describe('RedisRateLimitStore', () => {
  it('shares counters between two connections on one prefix (two replicas)', async () => {
    const keyPrefix = `test-${randomUUID()}`;
    const a = new RedisRateLimitStore({ url: testEngines().redisUrl, keyPrefix });
    const b = new RedisRateLimitStore({ url: testEngines().redisUrl, keyPrefix });
    try {
      const now = Date.now();
      await a.hit('tok', 60_000, now);
      expect((await b.hit('tok', 60_000, now)).count).toBe(2);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('fails fast with a reason when Redis cannot be reached', async () => {
    const store = new RedisRateLimitStore({ url: 'redis://127.0.0.1:1', keyPrefix: 'x' });
    try {
      await expect(store.hit('tok', 60_000, Date.now())).rejects.toThrow(/redis unreachable at redis:\/\/127.0.0.1:1/);
    } finally {
      await store.close();
    }
  });
});
