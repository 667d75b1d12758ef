import Redis from 'ioredis';
import { settlesBefore, startRedis, testEngines, until, type RunningEngine } from '@bpc/testing';
import type { LogSink } from '@bpc/support';
import { QueueStoreUnavailableError, RedisQueueStore } from './redis-queue-store';

describe('RedisQueueStore connection', () => {
  it('connects on first use; calls made meanwhile wait for that connection', async () => {
    const store = new RedisQueueStore({ url: testEngines().redisUrl, keyPrefix: `first-use-${Date.now()}` });
    try {
      const answers = await Promise.all([store.check(), store.counts(0), store.pausedHosts(0), store.nextOffset('s:0')]);
      expect(answers).toEqual([undefined, new Map(), new Map(), undefined]);
    } finally {
      await store.close();
    }
  });
});

describe('RedisQueueStore with a pause it cannot read', () => {
  it('drains the host and logs an error on each claim, and reports it as not paused (daemon spec: a failed pause read keeps draining)', async () => {
    const T = 1_700_000_000_000;
    const keyPrefix = `unreadable-pause-${Date.now()}`;
    const errors: object[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: (fields: object, message: string) => void errors.push({ ...fields, message }) };
    const store = new RedisQueueStore({ url: testEngines().redisUrl, keyPrefix, log });
    const raw = new Redis(testEngines().redisUrl);
    try {
      await store.enqueue({ hostId: 1, priority: 'normal', dueAt: T, items: [{ url: 'https://a.example/1', dimensionId: 1 }], entryId: 'e1' });
      await store.enqueue({ hostId: 2, priority: 'normal', dueAt: T, items: [{ url: 'https://b.example/1', dimensionId: 1 }], entryId: 'e2' });
      await store.pause(1, T + 60_000);
      await store.pause(2, T + 60_000);
      expect([...(await store.pausedHosts(T)).keys()]).toEqual([1, 2]);
      await raw.hset(`{${keyPrefix}}:pauses`, '1', 'not a deadline');

      expect([...(await store.pausedHosts(T)).keys()]).toEqual([2]);
      expect((await store.claim({ now: T, limit: 5, leaseMs: 1_000 })).map((c) => c.url)).toEqual(['https://a.example/1']);
      expect(errors).toEqual([{ hosts: [1], message: 'host pause unreadable (not a deadline): draining the host this tick' }]);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });
});

/** Redis-only behaviour: what happens when the server goes away and comes back (a private redis-server). */
describe('RedisQueueStore when Redis is unreachable', () => {
  const T = 1_700_000_000_000;
  /** The stores' default command timeout: failing fast is failing before a command could have timed out. */
  const FAST_MS = 2_000;
  let redis: RunningEngine | undefined;
  const stores: RedisQueueStore[] = [];

  function recordingLog(): LogSink & { lines: string[] } {
    const lines: string[] = [];
    const write = (level: string) => (_fields: object, message: string) => void lines.push(`${level}: ${message}`);
    return { lines, info: write('info'), warn: write('warn'), error: write('error') };
  }

  function newStore(url: string, log?: LogSink): RedisQueueStore {
    const store = new RedisQueueStore({ url, keyPrefix: 'outage', log, reconnectMaxDelayMs: 200 });
    stores.push(store);
    return store;
  }

  /** The operation's error, and whether it settled before a timer of FAST_MS set with it (see `settlesBefore`). */
  async function timed<T>(operation: () => Promise<T>): Promise<{ error: unknown; fast: boolean }> {
    const running = operation();
    const fast = await settlesBefore(running, FAST_MS);
    return { error: await running.then(() => undefined, (error: unknown) => error), fast };
  }

  const eventually = (check: () => Promise<unknown>, timeoutMs: number): Promise<void> =>
    until(() => check().then(() => true, () => false), { timeoutMs, what: check.toString() });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await redis?.stop();
    redis = undefined;
  });

  it('fails fast naming the URL while Redis is down, and works again on the same store once it is back', async () => {
    redis = await startRedis();
    const { port, url } = redis;
    const log = recordingLog();
    const store = newStore(url, log);
    await store.enqueue({ hostId: 1, priority: 'high', dueAt: T, items: [{ url: 'u', dimensionId: 1 }], entryId: 'e1' });
    expect((await store.counts(T)).get(1)?.high.total).toBe(1);

    await redis.stop();
    redis = undefined;
    const operations: [string, () => Promise<unknown>][] = [
      ['enqueue', () => store.enqueue({ hostId: 1, priority: 'normal', dueAt: T, items: [{ url: 'v', dimensionId: 1 }], entryId: 'e2' })],
      ['purge', () => store.purge(1, ['high', 'normal'])],
      ['pause', () => store.pause(1, T + 1_000)],
      ['resume', () => store.resume(1)],
      ['counts', () => store.counts(T)],
      ['claim', () => store.claim({ now: T, limit: 5, leaseMs: 1_000 })],
      ['nextOffset', () => store.nextOffset('s:0')],
      ['check', () => store.check()],
    ];
    for (const [name, operation] of operations) {
      const { error, fast } = await timed(operation);
      expect({ name, failed: error instanceof QueueStoreUnavailableError, fast }).toEqual({ name, failed: true, fast: true });
      expect((error as Error).message).toContain(`redis unreachable at ${url}`);
    }
    await expect(store.check()).rejects.toThrow(/redis unreachable at redis:\/\/127\.0\.0\.1:\d+: (connect ECONNREFUSED|connection closed)/);

    redis = await startRedis(port);
    await eventually(() => store.check(), 10_000);
    // The restarted server is empty (no persistence): the scripts load again by themselves.
    const again = await store.enqueue({ hostId: 2, priority: 'normal', dueAt: T, items: [{ url: 'w', dimensionId: 1 }], entryId: 'e3' });
    expect(again.value).toEqual({ enqueued: 1, created: 1, promoted: 0 });
    expect((await store.claim({ now: T, limit: 5, leaseMs: 1_000 })).map((c) => c.url)).toEqual(['w']);
    expect(log.lines).toEqual(['error: redis queue store unreachable; reconnecting in the background', 'info: redis queue store reachable again']);
  });

  it('rejects at once with the connection error when Redis was never reachable', async () => {
    const free = await startRedis();
    const url = free.url;
    await free.stop();
    const store = newStore(url);
    const { error, fast } = await timed(() => store.check());
    expect(fast).toBe(true);
    expect(error).toBeInstanceOf(QueueStoreUnavailableError);
    expect((error as Error).message).toMatch(new RegExp(`^redis unreachable at ${url.replace(/\./g, '\\.')}: connect ECONNREFUSED`));
    const second = await timed(() => store.counts(T));
    expect(second.fast).toBe(true);
    expect((second.error as Error).message).toContain('connect ECONNREFUSED');

    // It keeps trying in the background: a server appearing later is picked up by the same store.
    redis = await startRedis(free.port);
    await eventually(() => store.check(), 10_000);
    expect((await store.counts(T)).size).toBe(0);
  });

  it('gives up on a hung server after the command timeout', async () => {
    redis = await startRedis();
    const store = new RedisQueueStore({ url: redis.url, keyPrefix: 'hung', commandTimeoutMs: 300 });
    stores.push(store);
    await store.check();
    process.kill(redis.pid, 'SIGSTOP');
    try {
      const { error, fast } = await timed(() => store.counts(T));
      expect(fast).toBe(true);
      expect(error).toBeInstanceOf(QueueStoreUnavailableError);
      expect((error as Error).message).toMatch(/redis unreachable at .*: Command timed out/);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
  });

  it('keeps credentials out of its messages', async () => {
    const free = await startRedis();
    await free.stop();
    const store = newStore(`redis://user:s3cret@127.0.0.1:${free.port}`);
    const { error } = await timed(() => store.check());
    expect((error as Error).message).not.toContain('s3cret');
    expect((error as Error).message).toContain(`redis unreachable at redis://user:***@127.0.0.1:${free.port}`);
  });
});

describe('RedisQueueStore with entries written before triggers existed', () => {
  it('reads a value without its trigger field as an entry without trigger, and keeps its id and attempts', async () => {
    const T = 1_700_000_000_000;
    const keyPrefix = `legacy-entries-${Date.now()}`;
    const store = new RedisQueueStore({ url: testEngines().redisUrl, keyPrefix });
    const raw = new Redis(testEngines().redisUrl);
    try {
      // The layout before triggers: '<priority>|<attempt>|<mode>|<entryId>'.
      await raw.zadd(`{${keyPrefix}}:q:1:normal`, T, '1|https://a.example/old');
      await raw.hset(`{${keyPrefix}}:e:1`, '1|https://a.example/old', 'normal|2|render|old-request');
      await raw.sadd(`{${keyPrefix}}:hosts`, '1');
      const [claimed] = await store.claim({ now: T, limit: 1, leaseMs: 1_000 });
      expect(claimed).toMatchObject({ url: 'https://a.example/old', dimensionId: 1, mode: 'render', entryId: 'old-request', attempt: 2 });
      expect(claimed.trigger).toBeUndefined();
    } finally {
      raw.disconnect();
      await store.close();
    }
  });

  it('settles such an entry by its id', async () => {
    const keyPrefix = `legacy-settle-${Date.now()}`;
    const store = new RedisQueueStore({ url: testEngines().redisUrl, keyPrefix });
    const raw = new Redis(testEngines().redisUrl);
    try {
      await raw.zadd(`{${keyPrefix}}:q:1:normal`, 1, '1|https://a.example/old');
      await raw.hset(`{${keyPrefix}}:e:1`, '1|https://a.example/old', 'normal|2|render|old-request');
      await raw.sadd(`{${keyPrefix}}:hosts`, '1');
      expect((await store.settle(1, 'https://a.example/old', 1, 'old-request')).value).toBe(true);
      expect(await store.counts(1)).toEqual(new Map());
    } finally {
      raw.disconnect();
      await store.close();
    }
  });
});

describe('RedisQueueStore deciding on a host read', () => {
  it('decides again when a claim changed the host between its read and its apply', async () => {
    const T = 1_700_000_000_000;
    const store = new RedisQueueStore({ url: testEngines().redisUrl, keyPrefix: `host-changed-${Date.now()}` });
    try {
      await store.enqueue({ hostId: 1, priority: 'normal', dueAt: T, items: [{ url: 'https://a.example/1', dimensionId: 1 }], entryId: 'e1' });
      // One connection keeps call order: the settle's read, the claim, then the settle's apply, which finds the host changed.
      const [settled, claimed] = await Promise.all([store.settle(1, 'https://a.example/1', 1, 'e1'), store.claim({ now: T, limit: 1, leaseMs: 1_000 })]);
      expect([settled.value, claimed.length]).toEqual([false, 1]);
    } finally {
      await store.close();
    }
  });
});
