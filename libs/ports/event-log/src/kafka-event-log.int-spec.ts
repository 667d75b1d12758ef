import { Kafka, logLevel } from 'kafkajs';
import type { LogSink } from '@bpc/support';
import { freePort, startKafkaMock, testEngines, until } from '@bpc/testing';
import { KafkaEventLog } from './kafka-event-log';

/** Keeps log entries so tests can check what reached the LogSink. */
function capturingLog(): LogSink & { entries: { level: string; fields: Record<string, unknown>; message: string }[] } {
  const entries: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const push = (level: string) => (fields: object, message: string) => void entries.push({ level, fields: fields as Record<string, unknown>, message });
  return { entries, info: push('info'), warn: push('warn'), error: push('error') };
}

const event = (n: number) => ({ type: 'KafkaSpecHappened', version: 3, id: `id-${n}`, occurredAt: new Date(0).toISOString(), key: 'k', payload: { n } });
const unique = (prefix: string) => `kafka-spec.${prefix}.${Math.random().toString(36).slice(2, 10)}`;

describe('KafkaEventLog', () => {
  it.concurrent('check() rejects within a few seconds, naming the brokers and the cause, when the cluster is unreachable', async () => {
    const broker = `127.0.0.1:${await freePort()}`;
    const log = new KafkaEventLog({ brokers: [broker], clientId: 'kafka-spec', connectionTimeoutMs: 1_000 });
    const started = Date.now();
    await expect(log.check()).rejects.toThrow(`kafka unreachable (brokers ${broker}): Connection error: connect ECONNREFUSED ${broker}`);
    expect(Date.now() - started).toBeLessThan(3_000);
    await log.close();
  });

  it.concurrent('append() rejects after its retries instead of hanging when the cluster is unreachable; kafkajs logs go to the LogSink', async () => {
    const broker = `127.0.0.1:${await freePort()}`;
    const sink = capturingLog();
    const log = new KafkaEventLog({ brokers: [broker], clientId: 'kafka-spec', log: sink, connectionTimeoutMs: 500, retry: { retries: 1, initialRetryTimeMs: 50, maxRetryTimeMs: 100 } });
    await expect(log.append(unique('topic'), [event(0)])).rejects.toThrow(/^kafka unreachable/);
    await log.close();
    expect(sink.entries.some((e) => e.level === 'error' && e.fields.component === 'kafkajs' && /ECONNREFUSED/.test(e.message))).toBe(true);
  });

  it.concurrent(
    'reports a cluster that went away: check() at once, append() within seconds, both naming the brokers',
    async () => {
      const kafka = await startKafkaMock();
      const log = new KafkaEventLog({ brokers: kafka.url.split(','), clientId: 'kafka-spec' });
      try {
        await log.append(unique('topic'), [event(0)]);
        await kafka.stop();
        await expect(log.check()).rejects.toThrow(/^kafka unreachable \(brokers .+\): .*ECONNREFUSED/);
        const started = Date.now();
        await expect(log.append(unique('topic'), [event(1)])).rejects.toThrow(/^kafka unreachable \(brokers .+\): .*ECONNREFUSED/);
        expect(Date.now() - started).toBeLessThan(15_000);
      } finally {
        await log.close();
        await kafka.stop();
      }
    },
    30_000,
  );

  it.concurrent('check() resolves when the cluster is up', async () => {
    const log = new KafkaEventLog({ brokers: testEngines().kafkaBrokers, clientId: 'kafka-spec' });
    await expect(log.check()).resolves.toBeUndefined();
    await log.close();
  });

  it.concurrent(
    'writes the JSON envelope as the value, the key as the message key and type/version/id as headers',
    async () => {
      const topic = unique('topic');
      const log = new KafkaEventLog({ brokers: testEngines().kafkaBrokers, clientId: 'kafka-spec' });
      await log.append(topic, [event(7)]);
      await log.close();

      // A downstream consumer that knows nothing of our adapter.
      const consumer = new Kafka({ brokers: testEngines().kafkaBrokers, clientId: 'downstream', logLevel: logLevel.NOTHING }).consumer({ groupId: unique('group'), maxWaitTimeInMs: 100 });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      const received = new Promise<{ key: string; value: unknown; headers: Record<string, string> }>((resolve) => {
        void consumer.run({
          eachMessage: async ({ message }) =>
            resolve({
              key: message.key!.toString(),
              value: JSON.parse(message.value!.toString()),
              headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
            }),
        });
      });
      try {
        const message = await received;
        expect(message.key).toBe('k');
        expect(message.value).toEqual(event(7));
        expect(message.headers).toEqual({ type: 'KafkaSpecHappened', version: '3', id: 'id-7' });
      } finally {
        await consumer.disconnect();
      }
    },
    30_000,
  );

  /** The first `count` messages of `topic` as a downstream consumer of our topics reads them (kafkajs, its own group). */
  async function readBackDownstream(topic: string, count: number): Promise<unknown[]> {
    const consumer = new Kafka({ brokers: testEngines().kafkaBrokers, clientId: 'downstream', logLevel: logLevel.NOTHING }).consumer({ groupId: unique('group'), maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const seen: unknown[] = [];
    try {
      await new Promise<void>((resolve) => {
        void consumer.run({
          eachMessage: async ({ message }) => {
            seen.push(JSON.parse(message.value!.toString()));
            if (seen.length === count) resolve();
          },
        });
      });
      return seen;
    } finally {
      await consumer.disconnect();
    }
  }

  it.concurrent(
    'appends a batch larger than 64 KB per partition (sent to the broker in pieces) that a downstream consumer reads back whole, in order',
    async () => {
      const topic = unique('large');
      const events = Array.from({ length: 300 }, (_, n) => ({ ...event(n), payload: { n, text: `é${'x'.repeat(1_000 + n)}` } }));
      const log = new KafkaEventLog({ brokers: testEngines().kafkaBrokers, clientId: 'kafka-spec' });
      await log.append(topic, events);
      await log.close();

      expect(await readBackDownstream(topic, events.length)).toEqual(events);
    },
    30_000,
  );

  it.concurrent(
    'appends the offThread topics from a worker thread: more events than one produce request takes, read back whole and in order; close waits for them',
    async () => {
      const topic = unique('offthread');
      const events = Array.from({ length: 2_500 }, (_, n) => event(n));
      const log = new KafkaEventLog({ brokers: testEngines().kafkaBrokers, clientId: 'kafka-spec', offThread: { topics: [topic], clientId: 'kafka-spec-offthread' } });
      const appended = log.append(topic, events);
      await log.close();
      await appended;

      expect(await readBackDownstream(topic, events.length)).toEqual(events);
    },
    60_000,
  );

  it.concurrent('rejects an offThread append when the cluster is unreachable, naming the brokers, as an append from this thread does', async () => {
    const broker = `127.0.0.1:${await freePort()}`;
    const topic = unique('offthread');
    const log = new KafkaEventLog({ brokers: [broker], clientId: 'kafka-spec', connectionTimeoutMs: 500, retry: { retries: 1, initialRetryTimeMs: 50, maxRetryTimeMs: 100 }, offThread: { topics: [topic], clientId: 'kafka-spec-offthread' } });
    await expect(log.append(topic, [event(0)])).rejects.toThrow(`kafka unreachable (brokers ${broker})`);
    await log.close();
  });

  it.concurrent(
    'asks startAt again on the next try of a batch after it failed, instead of holding the partition until the group rejoins',
    async () => {
      const sink = capturingLog();
      const log = new KafkaEventLog({ brokers: testEngines().kafkaBrokers, clientId: 'kafka-spec', log: sink });
      const topic = unique('startat');
      await log.append(topic, [event(0)]);
      let failuresLeft = 1;
      let handled = false;
      const subscription = await log.subscribe({
        groupId: unique('group'),
        topics: [topic],
        // One store blip at group join, e.g. a Redis command timing out on a stalled event loop.
        startAt: async () => {
          if (failuresLeft-- > 0) throw new Error('redis unreachable: Command timed out');
          return '0';
        },
        handleBatch: async () => void (handled = true),
      });
      try {
        await until(() => handled, { timeoutMs: 45_000 });
        // Before, kafkajs retried the same rejection until its retries ran out, crashed the consumer and rejoined (10 s and more).
        expect(sink.entries.filter((e) => /Restarting the consumer|NumberOfRetriesExceeded/.test(e.message))).toEqual([]);
      } finally {
        await subscription.stop();
        await log.close();
      }
    },
    60_000,
  );
});
