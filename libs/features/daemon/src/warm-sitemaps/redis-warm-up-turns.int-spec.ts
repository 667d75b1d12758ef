import { randomUUID } from 'node:crypto';
import { testEngines, until } from '@bpc/testing';
import { describeWarmUpTurnsContract } from './warm-up-turns.contract-spec';
import type { WarmUpTurns } from './warm-up-turns.port';
import { RedisWarmUpTurns } from './redis-warm-up-turns';

// Every store gets its own hash tag on the shared redis-server; `shareWith` reuses one (another daemon).
const prefixes = new WeakMap<WarmUpTurns, string>();
let probe: RedisWarmUpTurns | undefined;
describeWarmUpTurnsContract(
  'redis',
  async (shareWith) => {
    const keyPrefix = (shareWith && prefixes.get(shareWith)) ?? `test-${randomUUID()}`;
    const turns = new RedisWarmUpTurns({ url: testEngines().redisUrl, keyPrefix });
    prefixes.set(turns, keyPrefix);
    return turns;
  },
  {
    shared: true,
    // Redis expires keys on its own clock: wait until a fresh probe key of the same lifetime has gone.
    expire: async (ms) => {
      probe ??= new RedisWarmUpTurns({ url: testEngines().redisUrl, keyPrefix: `probe-${randomUUID()}` });
      const key = randomUUID();
      await probe.claim(key, 'probe', ms);
      await until(async () => probe!.claim(key, 'probe', ms), { timeoutMs: 5_000 });
    },
  },
);

afterAll(() => probe?.close());
