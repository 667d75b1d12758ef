import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EventEnvelope } from '@bpc/events';
import { EventLog, FileEventLog, KafkaEventLog } from '@bpc/event-log';
import { startKafkaMock } from '@bpc/testing';
import type { BenchRow, BenchSuite } from './bench-row';

const TOTAL_EVENTS = 200_000;
const BATCH = 1_000;
const FILE_TARGET = 50_000;
const WEBSITES = 100;

/** A bot-request-sized envelope (~300 bytes of JSON), keyed by website like the real topic. */
function botRequest(n: number): EventEnvelope {
  const website = `site-${n % WEBSITES}`;
  return {
    type: 'BotRequestRecorded',
    version: 1,
    id: `bench-${n}`,
    occurredAt: new Date(1_735_689_600_000 + n).toISOString(),
    key: website,
    payload: {
      websiteId: website,
      url: `https://www.${website}.example.com/products/${n % 5000}?ref=bench`,
      userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      statusCode: 200,
      cacheHit: n % 3 !== 0,
      responseMs: n % 250,
    },
  };
}

function batches(from: number, total: number, size: number): EventEnvelope[][] {
  const result: EventEnvelope[][] = [];
  for (let start = from; start < from + total; start += size) {
    result.push(Array.from({ length: Math.min(size, from + total - start) }, (_, i) => botRequest(start + i)));
  }
  return result;
}

/**
 * Appends `total` events with `appenders` concurrent loops, each awaiting its
 * own appends of `size` events one after the other; returns events/s.
 * Events are built before the clock starts, so only the log is measured.
 */
async function measure(log: EventLog, topic: string, total: number, size: number, appenders: number): Promise<number> {
  await log.append(topic, [botRequest(-1)]); // creates the topic outside the measurement
  const perAppender = Math.floor(total / appenders);
  const work = Array.from({ length: appenders }, (_, a) => batches(a * perAppender, perAppender, size));
  const started = performance.now();
  await Promise.all(
    work.map(async (list) => {
      for (const batch of list) await log.append(topic, batch);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return (perAppender * appenders) / seconds;
}

async function withFileLog<T>(use: (log: FileEventLog) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bpc-bench-event-log-'));
  const log = await FileEventLog.open({ dir, partitions: 4 });
  try {
    return await use(log);
  } finally {
    await log.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function withKafkaLog<T>(use: (log: KafkaEventLog) => Promise<T>): Promise<T> {
  const mock = await startKafkaMock();
  const log = new KafkaEventLog({ brokers: mock.url.split(','), clientId: 'bpc-bench' });
  try {
    return await use(log);
  } finally {
    await log.close();
    await mock.stop();
  }
}

/** Events of one flush of the edge's recorder in standalone at 17,000 requests/s (every 200 ms). */
const FLUSH_EVENTS = 3_400;
const FLUSHES = 20;

/**
 * The longest stretch of CPU time (the process's, so that other work on a
 * shared machine does not count) between two turns of the event loop while
 * the file log takes one flush of bot requests: what a request arriving
 * during the flush waits for at worst (docs/recording.md). Median over
 * FLUSHES appends, the first four left out (warm-up).
 */
async function longestStretchMs(log: FileEventLog): Promise<number> {
  await log.append('bench', [botRequest(-1)]);
  const stretches: number[] = [];
  for (const batch of batches(0, FLUSH_EVENTS * FLUSHES, FLUSH_EVENTS)) {
    let running = true;
    let longest = 0;
    let last = process.cpuUsage();
    const turn = (): void => {
      const spent = process.cpuUsage(last);
      longest = Math.max(longest, (spent.user + spent.system) / 1000);
      last = process.cpuUsage();
      if (running) setImmediate(turn);
    };
    setImmediate(turn);
    await new Promise((resolve) => setImmediate(resolve));
    await log.append('bench', batch);
    running = false;
    stretches.push(longest);
  }
  const measured = stretches.slice(4).sort((a, b) => a - b);
  return measured[measured.length >> 1];
}

function targetRow(name: string, value: number): BenchRow {
  return { name, value, unit: 'events/s', target: `>= ${FILE_TARGET} events/s`, pass: value >= FILE_TARGET };
}

export const eventLogBench: BenchSuite = {
  name: 'event-log',
  async run(): Promise<BenchRow[]> {
    const sequential = await withFileLog((log) => measure(log, 'bench', TOTAL_EVENTS, BATCH, 1));
    const concurrent = await withFileLog((log) => measure(log, 'bench', TOTAL_EVENTS, BATCH, 8));
    const single = await withFileLog((log) => measure(log, 'bench', 20_000, 1, 64));
    const kafka = await withKafkaLog((log) => measure(log, 'bench', TOTAL_EVENTS, BATCH, 1));
    const stretch = await withFileLog(longestStretchMs);
    return [
      targetRow(`file event log: append ${TOTAL_EVENTS} events durably, batches of ${BATCH}, one appender`, sequential),
      targetRow(`file event log: append ${TOTAL_EVENTS} events durably, batches of ${BATCH}, 8 concurrent appenders (group commit)`, concurrent),
      { name: 'file event log: append 20000 single events durably, 64 concurrent appenders (group commit)', value: single, unit: 'events/s', target: '' },
      { name: `kafka event log (kcat mock cluster, acks=-1): append ${TOTAL_EVENTS} events, batches of ${BATCH}`, value: kafka, unit: 'events/s', target: '' },
      { name: `file event log: longest CPU stretch between two turns of the event loop while it takes a flush of ${FLUSH_EVENTS} bot requests (median of ${FLUSHES - 4})`, value: stretch, unit: 'ms', target: '' },
    ];
  },
};
