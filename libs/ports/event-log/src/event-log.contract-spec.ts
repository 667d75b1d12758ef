import { randomBytes } from 'node:crypto';
import { EventEnvelope } from '@bpc/events';
import { until } from '@bpc/testing';
import type { EventLog, LogBatch, LogRecord, Subscription, SubscriptionSpec } from './event-log.port';

/**
 * Storage for one contract test. `open()` opens a log on it; after that log
 * is closed, `open()` again reopens the same storage (a restart). `cleanup()`
 * removes the storage. Logs opened through the contract are closed by it.
 */
export interface EventLogHarness {
  open(): Promise<EventLog>;
  cleanup(): Promise<void>;
}

export type EventLogFactory = () => Promise<EventLogHarness>;

/** Generous: Kafka group joins alone take ~3 s on the mock cluster. */
const TEST_TIMEOUT_MS = 45_000;
const WAIT_MS = 20_000;

/**
 * The behaviour every EventLog adapter must show (see the port's guarantees).
 *
 * Tests run concurrently (`it.concurrent`): each uses its own topics and
 * groups, and Kafka consumer-group joins, which dominate cluster-mode time,
 * then overlap. Nothing here depends on a partition count.
 */
export function describeEventLogContract(adapterName: string, factory: EventLogFactory): void {
  describe(`EventLog contract: ${adapterName}`, () => {
    it.concurrent(
      'delivers appended envelopes unchanged, with per-partition offsets from "0"',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        const events = [event('a', 0), event('a', 1), event('b', 0)];
        await log.append(topic, events);
        const seen = new Collector();
        await seen.subscribe(log, { groupId: name('group'), topics: [topic] });
        const records = await seen.waitForCount(3);
        expect(sortById(records.map((r) => r.event))).toEqual(sortById(events));
        for (const batch of seen.batches) expect(batch.records.every((r) => r.topic === topic && r.partition === batch.partition)).toBe(true);
        for (const offsets of offsetsByPartition(records).values()) expect(offsets).toEqual(offsets.map((_, i) => String(i)));
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'delivers records appended after subscribing, to a topic that did not exist before',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        const seen = new Collector();
        await seen.subscribe(log, { groupId: name('group'), topics: [topic] });
        await log.append(topic, [event('late', 0)]);
        const [record] = await seen.waitForCount(1);
        expect(record.event.id).toBe(event('late', 0).id);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'keeps the order of one key across many appends, in batches of at most maxBatchSize',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        for (let i = 0; i < 40; i += 1) await log.append(topic, range(i * 5, 5).map((n) => event('k', n)));
        const seen = new Collector();
        await seen.subscribe(log, { groupId: name('group'), topics: [topic], maxBatchSize: 16 });
        const records = await seen.waitForCount(200);
        expect(records.map((r) => seq(r))).toEqual(range(0, 200));
        expect(records.map((r) => Number(r.offset))).toEqual(range(0, 200));
        expect(Math.max(...seen.batches.map((b) => b.records.length))).toBeLessThanOrEqual(16);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'spreads distinct keys over partitions; each key stays on one partition, in order',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        const keys = range(0, 24).map((i) => `host-${i}`);
        for (let round = 0; round < 10; round += 1) await log.append(topic, keys.map((key) => event(key, round)));
        const seen = new Collector();
        await seen.subscribe(log, { groupId: name('group'), topics: [topic] });
        const records = await seen.waitForCount(240);
        const partitionsOfKey = new Map<string, Set<number>>();
        for (const key of keys) {
          const ofKey = records.filter((r) => r.event.key === key);
          expect(ofKey.map((r) => seq(r))).toEqual(range(0, 10));
          partitionsOfKey.set(key, new Set(ofKey.map((r) => r.partition)));
        }
        expect([...partitionsOfKey.values()].every((set) => set.size === 1)).toBe(true);
        expect(new Set(records.map((r) => r.partition)).size).toBeGreaterThan(1);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'resumes after the last committed offset when the group subscribes again',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        const groupId = name('group');
        await log.append(topic, range(0, 10).map((n) => event('k', n)));
        const first = new Collector();
        await first.subscribe(log, { groupId, topics: [topic], maxBatchSize: 4 });
        await first.waitForCount(10);
        await first.stop();
        await log.append(topic, range(10, 5).map((n) => event('k', n)));
        const second = new Collector();
        await second.subscribe(log, { groupId, topics: [topic] });
        const records = await second.waitForCount(5);
        expect(records.map((r) => seq(r))).toEqual(range(10, 5));
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'resumes after the last committed offset across close and reopen',
      withLog(factory, async ({ log, name, reopen }) => {
        const topic = name('topic');
        const groupId = name('group');
        await log.append(topic, range(0, 10).map((n) => event('k', n)));
        const first = new Collector();
        await first.subscribe(log, { groupId, topics: [topic], maxBatchSize: 3 });
        await first.waitForCount(10);
        await log.close();
        const again = await reopen();
        await again.append(topic, range(10, 5).map((n) => event('k', n)));
        const second = new Collector();
        await second.subscribe(again, { groupId, topics: [topic] });
        const records = await second.waitForCount(5);
        expect(records.map((r) => seq(r))).toEqual(range(10, 5));
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'redelivers the records of a failed batch before any later record (at-least-once)',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        await log.append(topic, range(0, 6).map((n) => event('k', n)));
        const deliveries: number[][] = [];
        let failures = 0;
        const seen = new Collector(async (batch) => {
          deliveries.push(batch.records.map((r) => seq(r)));
          if (failures === 0 && batch.records.some((r) => seq(r) === 4)) {
            failures += 1;
            throw new Error('projection store unavailable');
          }
        });
        await seen.subscribe(log, { groupId: name('group'), topics: [topic], maxBatchSize: 3 });
        const failedAt = () => deliveries.findIndex((d) => d.includes(4));
        await eventually(() => failedAt() >= 0 && deliveries.slice(failedAt() + 1).flat().includes(5));
        const failed = deliveries[failedAt()];
        const before = deliveries.slice(0, failedAt() + 1).flat();
        const after = deliveries.slice(failedAt() + 1).flat();
        // In order up to the failure, then again from the failed batch's first record, nothing later first.
        expect(before).toEqual(range(0, before.length));
        expect(after).toEqual(range(failed[0], 6 - failed[0]));
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'replays from the beginning for a new group, whatever other groups committed',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        await log.append(topic, range(0, 5).map((n) => event('k', n)));
        const first = new Collector();
        await first.subscribe(log, { groupId: name('group-a'), topics: [topic] });
        await first.waitForCount(5);
        await first.stop();
        const second = new Collector();
        await second.subscribe(log, { groupId: name('group-b'), topics: [topic] });
        expect((await second.waitForCount(5)).map((r) => seq(r))).toEqual(range(0, 5));
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'tells the subscriber the partitions it holds before startAt is asked for them',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        await log.append(topic, [event('a', 0), event('b', 0), event('c', 0)]);
        const told: string[] = [];
        const seen = new Collector();
        const askedBeforeTold: string[] = [];
        await seen.subscribe(log, {
          groupId: name('group'),
          topics: [topic],
          assigned: (partitions) => told.push(...partitions.map((p) => `${p.topic}/${p.partition}`)),
          startAt: async (t, p) => {
            if (!told.includes(`${t}/${p}`)) askedBeforeTold.push(`${t}/${p}`);
            return undefined;
          },
        });
        const records = await seen.waitForCount(3);
        expect(askedBeforeTold).toEqual([]);
        for (const record of records) expect(told).toContain(`${topic}/${record.partition}`);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'starts where startAt says, over the committed offset',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        const groupId = name('group');
        await log.append(topic, range(0, 10).map((n) => event('k', n)));
        const first = new Collector();
        await first.subscribe(log, { groupId, topics: [topic] });
        const [{ partition }] = await first.waitForCount(10);
        await first.stop();
        const asked: string[] = [];
        const second = new Collector();
        await second.subscribe(log, {
          groupId,
          topics: [topic],
          startAt: async (t, p) => {
            asked.push(`${t}/${p}`);
            return t === topic && p === partition ? '4' : undefined;
          },
        });
        const records = await second.waitForCount(6);
        expect(records.map((r) => seq(r))).toEqual(range(4, 6));
        expect(records[0].offset).toBe('4');
        expect(asked).toContain(`${topic}/${partition}`);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'treats a startAt past the end like an out-of-range offset: replays from the earliest record',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        await log.append(topic, range(0, 3).map((n) => event('k', n)));
        const seen = new Collector();
        await seen.subscribe(log, { groupId: name('group'), topics: [topic], startAt: async () => '1000' });
        expect((await seen.waitForCount(3)).map((r) => seq(r))).toEqual(range(0, 3));
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'consumes several topics in one subscription',
      withLog(factory, async ({ log, name }) => {
        const topics = [name('topic-a'), name('topic-b')];
        await log.append(topics[0], range(0, 3).map((n) => event('k', n)));
        await log.append(topics[1], range(0, 4).map((n) => event('k', n)));
        const seen = new Collector();
        await seen.subscribe(log, { groupId: name('group'), topics });
        const records = await seen.waitForCount(7);
        expect(records.filter((r) => r.topic === topics[0]).map((r) => seq(r))).toEqual(range(0, 3));
        expect(records.filter((r) => r.topic === topics[1]).map((r) => seq(r))).toEqual(range(0, 4));
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'reports lag: the unhandled records, then 0 once they are handled',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        await log.append(topic, range(0, 8).map((n) => event(`key-${n}`, n)));
        let open!: () => void;
        const gate = new Promise<void>((resolve) => (open = resolve));
        const seen = new Collector(() => gate);
        const subscription = await seen.subscribe(log, { groupId: name('group'), topics: [topic] });
        expect(await subscription.lag()).toBe(8);
        open();
        await seen.waitForCount(8);
        await eventually(async () => (await subscription.lag()) === 0);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'counts a replay from startAt in lag, although its group already handled everything (a restarted reader replaying from 0)',
      withLog(factory, async ({ log, name }) => {
        const topic = name('topic');
        const groupId = name('group');
        await log.append(topic, range(0, 8).map((n) => event(`key-${n}`, n)));
        const first = new Collector();
        const done = await first.subscribe(log, { groupId, topics: [topic] });
        await first.waitForCount(8);
        await eventually(async () => (await done.lag()) === 0);
        await first.stop();

        let open!: () => void;
        const gate = new Promise<void>((resolve) => (open = resolve));
        const replay = new Collector(() => gate);
        const subscription = await replay.subscribe(log, { groupId, topics: [topic], startAt: async () => '0' });
        expect(await subscription.lag()).toBe(8);
        open();
        await replay.waitForCount(8);
        await eventually(async () => (await subscription.lag()) === 0);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'close() waits for concurrent appends: every acknowledged event survives a reopen',
      withLog(factory, async ({ log, name, reopen }) => {
        const topic = name('topic');
        const appends = range(0, 20).map((i) => log.append(topic, range(0, 10).map((n) => event(`key-${i % 7}`, i * 10 + n))));
        await log.close();
        const outcomes = await Promise.allSettled(appends);
        expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
        const again = await reopen();
        const seen = new Collector();
        await seen.subscribe(again, { groupId: name('group'), topics: [topic] });
        const records = await seen.waitForCount(200);
        expect(new Set(records.map((r) => r.event.id)).size).toBe(200);
      }),
      TEST_TIMEOUT_MS,
    );

    it.concurrent(
      'check() resolves while the log is healthy',
      withLog(factory, async ({ log }) => {
        await expect(log.check()).resolves.toBeUndefined();
      }),
      TEST_TIMEOUT_MS,
    );
  });
}

interface TestContext {
  readonly log: EventLog;
  /** Opens the same storage again (after `log.close()`). */
  readonly reopen: () => Promise<EventLog>;
  /** A name unique to this test run (topics and groups are shared on a cluster). */
  readonly name: (prefix: string) => string;
}

/** Gives a test a fresh log and always closes every log it opened and cleans the storage. */
function withLog(factory: EventLogFactory, test: (context: TestContext) => Promise<void>): () => Promise<void> {
  return async () => {
    const harness = await factory();
    const opened: EventLog[] = [];
    const open = async () => {
      const log = await harness.open();
      opened.push(log);
      return log;
    };
    const suffix = randomBytes(4).toString('hex');
    try {
      await test({ log: await open(), reopen: open, name: (prefix) => `contract.${prefix}.${suffix}` });
    } finally {
      await Promise.allSettled(opened.map((log) => log.close()));
      await harness.cleanup();
    }
  };
}

/** Records every batch; `handle` can delay or fail a batch (it is recorded first). */
class Collector {
  readonly batches: LogBatch[] = [];
  private subscription?: Subscription;

  constructor(private readonly handle: (batch: LogBatch) => Promise<void> = async () => undefined) {}

  get records(): LogRecord[] {
    return this.batches.flatMap((b) => b.records);
  }

  async subscribe(log: EventLog, spec: Omit<SubscriptionSpec, 'handleBatch'>): Promise<Subscription> {
    this.subscription = await log.subscribe({
      ...spec,
      handleBatch: async (batch) => {
        this.batches.push(batch);
        await this.handle(batch);
      },
    });
    return this.subscription;
  }

  async waitForCount(count: number): Promise<LogRecord[]> {
    await eventually(() => this.records.length >= count, () => `${count} records (got ${this.records.length})`);
    return this.records;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }
}

function eventually(condition: () => boolean | Promise<boolean>, what?: string | (() => string)): Promise<void> {
  return until(condition, { timeoutMs: WAIT_MS, intervalMs: 20, what });
}

function event(key: string, n: number): EventEnvelope<'ContractEventHappened', { n: number }> {
  return {
    type: 'ContractEventHappened',
    version: 1,
    id: `${key}:${n}`,
    occurredAt: new Date(Date.UTC(2025, 0, 1) + n).toISOString(),
    key,
    payload: { n },
  };
}

function seq(record: LogRecord): number {
  return (record.event.payload as { n: number }).n;
}

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

function sortById(events: readonly EventEnvelope[]): EventEnvelope[] {
  return [...events].sort((a, b) => a.id.localeCompare(b.id));
}

function offsetsByPartition(records: readonly LogRecord[]): Map<number, string[]> {
  const byPartition = new Map<number, string[]>();
  for (const r of records) byPartition.set(r.partition, [...(byPartition.get(r.partition) ?? []), r.offset]);
  return byPartition;
}
