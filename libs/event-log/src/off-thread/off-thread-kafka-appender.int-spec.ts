import type { LogSink } from '@bpc/domain';
import { BotRequestEventIds, RecordedBotRequests } from '@bpc/events';
import { freePort, recordedBotRequest, testEngines, until } from '@bpc/testing';
import type { LogRecord } from '../event-log.port';
import { KafkaEventLog } from '../kafka-event-log';
import { NamespacedEventLog } from '../namespaced-event-log';
import { OffThreadKafkaAppender } from './off-thread-kafka-appender';

const event = (n: number) => ({ type: 'OffThreadSpecHappened', version: 1, id: `id-${n}`, occurredAt: new Date(0).toISOString(), key: `k${n % 3}`, payload: { n } });
const unique = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 10)}`;

function capturingLog(): LogSink & { entries: { level: string; message: string }[] } {
  const entries: { level: string; message: string }[] = [];
  const push = (level: string) => (_fields: object, message: string) => void entries.push({ level, message });
  return { entries, info: push('info'), warn: push('warn'), error: push('error') };
}

/** Everything appended to `topic` in `namespace`, read back by the ordinary Kafka event log. */
async function readBack(namespace: string, topic: string, count: number): Promise<LogRecord[]> {
  const reader = new NamespacedEventLog(new KafkaEventLog({ brokers: testEngines().kafkaBrokers, clientId: 'off-thread-reader' }), namespace);
  const seen: LogRecord[] = [];
  const subscription = await reader.subscribe({ groupId: unique('g'), topics: [topic], handleBatch: async (batch) => void seen.push(...batch.records) });
  await until(() => seen.length >= count, { timeoutMs: 20_000, what: `${count} records of ${topic}` });
  await subscription.stop();
  await reader.close();
  return seen;
}

describe('OffThreadKafkaAppender', () => {
  it('appends from its worker into the namespaced topic, in order per key, read back by the ordinary Kafka event log', async () => {
    const namespace = unique('offthread');
    const appender = new OffThreadKafkaAppender({ brokers: testEngines().kafkaBrokers, clientId: 'off-thread-spec', namespace }, capturingLog());
    const events = Array.from({ length: 300 }, (_, n) => event(n));
    await appender.append('spec.topic', events.slice(0, 100));
    await Promise.all([appender.append('spec.topic', events.slice(100, 200)), appender.append('spec.topic', events.slice(200))]);
    await appender.close();

    const seen = await readBack(namespace, 'spec.topic', events.length);
    expect(seen.map((r) => r.event).sort((a, b) => Number(a.id.slice(3)) - Number(b.id.slice(3)))).toEqual(events);
    for (const key of ['k0', 'k1', 'k2']) {
      const ns = seen.filter((r) => r.event.key === key).map((r) => (r.event.payload as { n: number }).n);
      expect(ns).toEqual([...ns].sort((a, b) => a - b));
    }
  }, 40_000);

  it('appends recorded bot requests as their events, serialised in the worker', async () => {
    const namespace = unique('offthread');
    const appender = new OffThreadKafkaAppender({ brokers: testEngines().kafkaBrokers, clientId: 'off-thread-spec', namespace }, capturingLog());
    const prefix = 'abcdefabcdefabcdefabcdefabcdefab';
    const batches = [new RecordedBotRequests(prefix), new RecordedBotRequests(prefix)];
    const requests = Array.from({ length: 50 }, (_, n) => recordedBotRequest(n));
    requests.forEach((r, n) => batches[n < 20 ? 0 : 1].add(r, n));
    await appender.appendRecordedBotRequests('spec.bots', batches.map((b) => b.columns()));
    await appender.close();

    const seen = await readBack(namespace, 'spec.bots', requests.length);
    const ids = new BotRequestEventIds(prefix);
    const byRequest = new Map(seen.map((r) => [(r.event.payload as { requestId: string }).requestId, r.event]));
    requests.forEach((r, n) => {
      const event = byRequest.get(r.requestId)!;
      expect({ id: event.id, key: event.key, occurredAt: event.occurredAt }).toEqual({ id: ids.of(n), key: r.websiteId, occurredAt: new Date(r.servedAtMs).toISOString() });
    });
  }, 40_000);

  it('rejects appends the brokers cannot take with the log adapter\'s error, then refuses appends once closed', async () => {
    const broker = `127.0.0.1:${await freePort()}`;
    const log = capturingLog();
    const appender = new OffThreadKafkaAppender({ brokers: [broker], clientId: 'off-thread-spec' }, log);
    await expect(appender.append('spec.topic', [event(1)])).rejects.toThrow(/^kafka unreachable/);
    expect(log.entries.some((e) => e.level === 'error')).toBe(true);
    await appender.close();
    await expect(appender.append('spec.topic', [event(2)])).rejects.toThrow(/closed/);
  }, 60_000);
});
