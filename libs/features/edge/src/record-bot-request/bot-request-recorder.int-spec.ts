import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventLog, FileEventLog, LogRecord } from '@bpc/event-log';
import { BotRequestRecorded, BotRequestRecordedPayload, RecordedBotRequest, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { testConfig, until } from '@bpc/testing';
import pino from 'pino';
import { Registry } from 'prom-client';
import { SwappableLog } from '../swappable-log.fixture';
import { BotRequestRecorder } from './bot-request-recorder';

const payload = (n: number): RecordedBotRequest => ({
  websiteId: 'demo',
  host: 'www.example.com',
  url: `https://www.example.com/p${n}`,
  pageTitle: '',
  statusCode: 200,
  botName: 'Googlebot',
  userAgent: 'Googlebot/2.1',
  dimensionId: 1,
  dimensionName: 'desktop',
  cacheStatus: 'hit',
  serveTimeMs: 1,
  snapshotAgeS: 0,
  bytes: 10,
  servedAtMs: Date.now(),
  requestId: `r${n}`,
  format: 'html',
  botCategory: 'search',
  botOperator: 'Google',
  verified: 'unknown',
  robotsAllowed: 'unknown',
});

/** The request ids of one append's events. */
function requestIdsOf(events: readonly BotRequestRecorded[]): string[] {
  return events.map((event) => event.payload.requestId);
}

/** A log whose appends the test scripts (refused, or never answered, at will); nothing reads from it. */
function scriptedLog(append: (events: readonly BotRequestRecorded[]) => Promise<void>): EventLog {
  return {
    append: (_topic, events) => append(events as readonly BotRequestRecorded[]),
    subscribe: () => Promise.reject(new Error('a scripted log has nothing to read')),
    check: async () => undefined,
    close: async () => undefined,
  };
}

describe('BotRequestRecorder against a file event log', () => {
  it('buffers while the log refuses appends, drops the oldest beyond the bound, and records the rest once the log is back', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-recorder-'));
    const down = await FileEventLog.open({ dir });
    await down.close();
    const log = new SwappableLog(down);
    const registry = new Registry();
    const config = testConfig('standalone', { edge: { record_buffer_max: 5, record_batch_max: 2, record_flush_ms: 10 } });
    const logger = createLogger('silent', 'recorder');
    const recorder = new BotRequestRecorder(config, log, logger, registry);
    recorder.onModuleInit();
    for (let n = 1; n <= 8; n += 1) recorder.record(payload(n));
    await until(() => log.refused >= 1, { what: 'an append the closed log refused' });
    expect(recorder.pending()).toBe(5);
    expect(await registry.getSingleMetricAsString('bpc_edge_recorded_dropped_total')).toContain('bpc_edge_recorded_dropped_total 3');

    const back = await FileEventLog.open({ dir });
    log.current = back;
    await until(() => recorder.pending() === 0, { timeoutMs: 10_000, intervalMs: 20 });
    const seen: LogRecord[] = [];
    const subscription = await back.subscribe({ groupId: 'check', topics: [TOPICS.botRequests], handleBatch: async (batch) => void seen.push(...batch.records) });
    await until(() => seen.length >= 5, { timeoutMs: 10_000, intervalMs: 20 });
    await subscription.stop();
    expect(seen.map((r) => (r.event.payload as BotRequestRecordedPayload).requestId)).toEqual(['r4', 'r5', 'r6', 'r7', 'r8']);

    recorder.record(payload(9));
    await recorder.onApplicationShutdown();
    expect(recorder.pending()).toBe(0);
    await back.close();
  });

  it('never throws for a request it cannot record: counts it as dropped and records the next ones', async () => {
    const appended: string[] = [];
    const log = scriptedLog(async (events) => void appended.push(...requestIdsOf(events)));
    const registry = new Registry();
    const config = testConfig('standalone', { edge: { record_buffer_max: 10, record_batch_max: 3, record_flush_ms: 10 } });
    const recorder = new BotRequestRecorder(config, log, createLogger('silent', 'recorder'), registry);
    recorder.onModuleInit();
    recorder.record(payload(1));
    expect(() => recorder.record({ ...payload(2), pageTitle: undefined as unknown as string })).not.toThrow();
    recorder.record(payload(3));
    expect(recorder.pending()).toBe(2);
    await recorder.onApplicationShutdown();
    expect(appended).toEqual(['r1', 'r3']);
    expect(await registry.getSingleMetricAsString('bpc_edge_recorded_dropped_total')).toContain('bpc_edge_recorded_dropped_total 1');
  });

  it('counts the batch being appended as pending, and at shutdown waits for it and appends it again when the log refused it', async () => {
    const appended: string[] = [];
    let calls = 0;
    let refuse!: () => void;
    const log = scriptedLog((events) => {
      calls += 1;
      if (calls === 1) return new Promise<void>((_resolve, reject) => (refuse = () => reject(new Error('log down'))));
      appended.push(...requestIdsOf(events));
      return Promise.resolve();
    });
    const registry = new Registry();
    const config = testConfig('standalone', { edge: { record_buffer_max: 10, record_batch_max: 3, record_flush_ms: 10 } });
    const recorder = new BotRequestRecorder(config, log, createLogger('silent', 'recorder'), registry);
    recorder.onModuleInit();
    for (let n = 1; n <= 3; n += 1) recorder.record(payload(n));
    await until(() => calls === 1, { timeoutMs: 5_000, intervalMs: 5 });
    expect(recorder.pending()).toBe(3);
    expect(await registry.getSingleMetricAsString('bpc_edge_record_buffer_size')).toContain('bpc_edge_record_buffer_size 3');

    const stopping = recorder.onApplicationShutdown();
    refuse();
    await stopping;
    expect(appended).toEqual(['r1', 'r2', 'r3']);
    expect(recorder.pending()).toBe(0);
  });

  it('stops waiting at the shutdown deadline for an append that never answers, and logs how many requests it lost', async () => {
    let calls = 0;
    const log = scriptedLog(() => {
      calls += 1;
      return new Promise<void>(() => undefined);
    });
    const lines: { lost?: number; msg: string }[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const config = testConfig('standalone', { edge: { record_buffer_max: 10, record_batch_max: 3, record_flush_ms: 10 } });
    const recorder = new BotRequestRecorder(config, log, logger, new Registry(), 300);
    recorder.onModuleInit();
    for (let n = 1; n <= 5; n += 1) recorder.record(payload(n));
    await until(() => calls === 1, { timeoutMs: 5_000, intervalMs: 5 });

    const started = Date.now();
    await recorder.onApplicationShutdown();
    // 300 ms of flushing (timers, not CPU: about as long on a busy machine), well before the 10 s a shutdown flush that ignored the 300 ms given would take.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lines).toEqual([expect.objectContaining({ lost: 5, msg: 'event log unreachable at shutdown: bot requests not recorded' })]);
  }, 20_000);

  it('appends per flush what was buffered when it started and batches filled meanwhile, not each request served during an append', async () => {
    const batches: string[][] = [];
    let release!: () => void;
    const log = scriptedLog((events) => {
      batches.push(requestIdsOf(events));
      return batches.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    });
    // The timer never fires here: flushes are called by hand.
    const config = testConfig('standalone', { edge: { record_buffer_max: 100, record_batch_max: 3, record_flush_ms: 60_000 } });
    const recorder = new BotRequestRecorder(config, log, createLogger('silent', 'recorder'), new Registry());
    recorder.onModuleInit();
    recorder.record(payload(1));
    const first = recorder.flush();
    for (let n = 2; n <= 6; n += 1) recorder.record(payload(n));
    release();
    await first;
    expect(batches).toEqual([['r1'], ['r2', 'r3', 'r4']]);
    expect(recorder.pending()).toBe(2);
    await recorder.flush();
    expect(batches).toEqual([['r1'], ['r2', 'r3', 'r4'], ['r5', 'r6']]);
    await recorder.onApplicationShutdown();
  });

  it('while backing off after a refused append, keeps the requests served meanwhile in one open batch, appended after the refused one', async () => {
    const batches: string[][] = [];
    let calls = 0;
    const log = scriptedLog((events) => {
      calls += 1;
      if (calls === 1) return Promise.reject(new Error('log down'));
      // The refused batch and the one filled meanwhile go in one append, in that order.
      batches.push(requestIdsOf(events));
      return Promise.resolve();
    });
    const config = testConfig('standalone', { edge: { record_buffer_max: 100, record_batch_max: 10, record_flush_ms: 60_000 } });
    const recorder = new BotRequestRecorder(config, log, createLogger('silent', 'recorder'), new Registry());
    // The backoff is measured on Date.now(): stopped here, so that a busy machine cannot end it before the test moves it on.
    jest.useFakeTimers({ doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    try {
      recorder.onModuleInit();
      recorder.record(payload(1));
      await recorder.flush();
      // Flushes during the backoff (about 200 ms after a first failure) append nothing and seal nothing.
      for (let n = 2; n <= 4; n += 1) {
        recorder.record(payload(n));
        await recorder.flush();
      }
      expect(calls).toBe(1);
      jest.setSystemTime(Date.now() + 300);
      await recorder.flush();
      expect(batches).toEqual([['r1', 'r2', 'r3', 'r4']]);
      expect(calls).toBe(2);
    } finally {
      jest.useRealTimers();
    }
    await recorder.onApplicationShutdown();
  });
});
