import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { FileEventLog } from '@bpc/event-log';
import { HOST_RECACHE_RESUMED, newQueueEvent, RECACHE_REQUESTED, TOPICS } from '@bpc/events';
import { RedisQueueStore } from '@bpc/queue-store';
import { testEngines, until } from '@bpc/testing';
import { applyQueueEvent } from '../queue/queue-projection';
import { subscribeCheckpointed } from './checkpointed-projection';

describe('subscribeCheckpointed (on a real file event log)', () => {
  let dir: string;
  let log: FileEventLog;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'checkpointed-'));
    log = await FileEventLog.open({ dir, partitions: 1, handlerBackoff: { initialMs: 20, maxMs: 50 } });
  });

  afterEach(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops at an event of a version this build does not know instead of skipping it, and its checkpoint stays before it', async () => {
    const known = (hostId: number) => newQueueEvent(HOST_RECACHE_RESUMED, { hostId }, '1', 0);
    const newer = { ...known(2), version: 2 };
    await log.append(TOPICS.queue, [known(1), newer, known(3)]);
    const applied: number[] = [];
    const checkpoints = new Map<string, string>();
    let firstEventSeen = 0;
    const subscription = await subscribeCheckpointed(log, {
      groupId: 'spec',
      topic: TOPICS.queue,
      nextOffset: async (stream) => checkpoints.get(stream),
      // As the stores do: an event at or past the checkpoint is applied, an earlier one (a retried batch) is not.
      apply: async (event, position) => {
        if (position.offset === '0') firstEventSeen += 1;
        if (BigInt(position.offset) < BigInt(checkpoints.get(position.stream) ?? '0')) return;
        applied.push((event.payload as { hostId: number }).hostId);
        checkpoints.set(position.stream, (BigInt(position.offset) + 1n).toString());
      },
    });
    try {
      // Retried twice (the batch comes again from its first event), never passed: it fails at the same event every time.
      await until(() => firstEventSeen >= 3);
      expect(applied).toEqual([1]);
      expect(checkpoints.get(`${TOPICS.queue}:0`)).toBe('1');
      expect(await subscription.lag()).toBe(3);
    } finally {
      await subscription.stop();
    }
  });

  it('rebuilds a Redis store that lost its data while running from the beginning of the log, instead of going on past the loss', async () => {
    const keyPrefix = `store-lost-${Date.now()}`;
    const store = new RedisQueueStore({ url: testEngines().redisUrl, keyPrefix });
    const raw = new Redis(testEngines().redisUrl);
    const lost: string[] = [];
    const recache = (n: number) => newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [`https://www.example.com/${n}`], dimensionIds: [1], priority: 'normal', source: 'daemon-api' }, '1', 0);
    const total = async () => (await store.counts(Date.now())).get(1)?.normal.total ?? 0;
    await log.append(TOPICS.queue, [1, 2, 3, 4, 5].map(recache));
    const subscription = await subscribeCheckpointed(log, {
      groupId: 'queue',
      topic: TOPICS.queue,
      nextOffset: (stream) => store.nextOffset(stream),
      apply: (event, position) => applyQueueEvent(store, event, position),
      onStoreLost: (stream) => lost.push(stream),
    });
    try {
      await until(async () => (await total()) === 5);
      // Redis restarted empty (or was flushed): every key of the store is gone.
      const keys = await raw.keys(`{${keyPrefix}}:*`);
      await raw.del(...keys);
      await log.append(TOPICS.queue, [recache(6)]);
      await until(async () => (await total()) === 6, { timeoutMs: 10_000 });
      expect(lost).toEqual([`${TOPICS.queue}:0`]);
      expect(await store.nextOffset(`${TOPICS.queue}:0`)).toBe('6');
    } finally {
      await subscription.stop();
      raw.disconnect();
      await store.close();
    }
  });
});
