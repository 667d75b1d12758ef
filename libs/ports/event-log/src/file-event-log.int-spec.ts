import { spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LogSink } from '@bpc/support';
import type { EventEnvelope } from '@bpc/events';
import { until } from '@bpc/testing';
import type { LogRecord, SubscriptionSpec } from './event-log.port';
import { EventTooLargeError } from './event-too-large';
import { FileEventLog, FileEventLogOptions } from './file-event-log';
import { ENCODE_SLICE } from './file/payloads-by-partition';
import { encodeFrame } from './file/record-framing';
import { KEYS_PER_APPENDER, KILL_TEST_TOPIC } from './fixtures/append-until-killed';
import { partitionForKey } from './partitioner';

const ROOT = path.resolve(__dirname, '../../../..');
const FIXTURE = path.join(__dirname, 'fixtures', 'append-until-killed.ts');

/** Keeps what the adapter logged, so tests can check that a repair was reported. */
class CapturedLog implements LogSink {
  readonly entries: { level: string; fields: object; message: string }[] = [];
  info(fields: object, message: string): void {
    this.entries.push({ level: 'info', fields, message });
  }
  warn(fields: object, message: string): void {
    this.entries.push({ level: 'warn', fields, message });
  }
  error(fields: object, message: string): void {
    this.entries.push({ level: 'error', fields, message });
  }
  has(level: string, text: string): boolean {
    return this.entries.some((e) => e.level === level && e.message.includes(text));
  }
}

function event(key: string, n: number): EventEnvelope<'FileSpecHappened', { n: number }> {
  return { type: 'FileSpecHappened', version: 1, id: `${key}:${n}`, occurredAt: new Date(0).toISOString(), key, payload: { n } };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const seq = (r: LogRecord) => (r.event.payload as { n: number }).n;

let dir: string;
const opened: FileEventLog[] = [];

async function openLog(options: Partial<FileEventLogOptions> = {}): Promise<FileEventLog> {
  const log = await FileEventLog.open({ dir, partitions: 4, ...options });
  opened.push(log);
  return log;
}

/** Everything a fresh group reads from `topics`, once it has caught up. */
async function readAll(log: FileEventLog, topics: string[], spec: Partial<SubscriptionSpec> = {}): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  const subscription = await log.subscribe({
    groupId: `read-all-${Math.random()}`,
    topics,
    ...spec,
    handleBatch: async (batch) => {
      records.push(...batch.records);
    },
  });
  await eventually(async () => (await subscription.lag()) === 0);
  await subscription.stop();
  return records;
}

const eventually = (condition: () => boolean | Promise<boolean>): Promise<void> => until(condition, { timeoutMs: 10_000, intervalMs: 10 });

function segmentDir(topic: string, key: string, partitions = 4): string {
  return path.join(dir, 'topics', topic, String(partitionForKey(key, partitions)));
}

async function segmentFiles(partitionDir: string): Promise<string[]> {
  return (await readdir(partitionDir)).filter((name) => /^\d{20}\.log$/.test(name)).sort();
}

async function lastSegment(partitionDir: string): Promise<string> {
  const files = await segmentFiles(partitionDir);
  return path.join(partitionDir, files[files.length - 1]);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bpc-file-log-'));
});

afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((log) => log.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('FileEventLog: crash recovery', () => {
  it.each([
    ['a partial frame', () => encodeFrame(10, Buffer.from(JSON.stringify(event('k', 10)))).subarray(0, 23)],
    ['garbage bytes', () => Buffer.from('\x00\x07garbage that is not a frame at all')],
  ])('cuts a torn tail (%s) on open, keeps every good record and appends after them', async (_, tail) => {
    const first = await openLog();
    await first.append('orders', range(0, 10).map((n) => event('k', n)));
    await first.close();
    const segment = await lastSegment(segmentDir('orders', 'k'));
    const goodSize = (await stat(segment)).size;
    await appendFile(segment, tail());

    const log = new CapturedLog();
    const reopened = await openLog({ log });
    expect(log.has('warn', 'cut a torn or corrupt tail')).toBe(true);
    expect((await stat(segment)).size).toBe(goodSize);
    await reopened.append('orders', range(10, 5).map((n) => event('k', n)));
    const records = await readAll(reopened, ['orders']);
    expect(records.map(seq)).toEqual(range(0, 15));
    expect(records.map((r) => r.offset)).toEqual(range(0, 15).map(String));
  });

  it('cuts a last frame whose CRC does not match and keeps the cut bytes beside the segment', async () => {
    const first = await openLog();
    await first.append('orders', range(0, 10).map((n) => event('k', n)));
    await first.close();
    const segment = await lastSegment(segmentDir('orders', 'k'));
    const torn = encodeFrame(10, Buffer.from(JSON.stringify(event('k', 10))));
    torn[torn.length - 3] ^= 0xff;
    await appendFile(segment, torn);

    const log = new CapturedLog();
    const reopened = await openLog({ log });
    const cut = log.entries.find((e) => e.message.includes('cut a torn or corrupt tail'))!.fields as { reason: string; keptAs: string };
    expect(cut.reason).toMatch(/CRC mismatch/);
    expect(await readFile(cut.keptAs)).toEqual(torn);
    await reopened.append('orders', [event('k', 10)]);
    expect((await readAll(reopened, ['orders'])).map(seq)).toEqual(range(0, 11));
  });

  it('survives SIGKILL mid-stream: every acknowledged event is there once, in order, and appends go on', async () => {
    for (let run = 0; run < 3; run += 1) {
      const runDir = path.join(dir, `run-${run}`);
      const acked = await appendUntilKilled(runDir, 3, 150 + Math.floor(Math.random() * 300));
      expect(acked.some((n) => n >= 0)).toBe(true);

      const log = await FileEventLog.open({ dir: runDir, partitions: 4 });
      opened.push(log);
      const records = await readAll(log, [KILL_TEST_TOPIC]);
      const ids = records.map((r) => r.event.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const [appender, lastAcked] of acked.entries()) {
        const mine = records.filter((r) => r.event.id.startsWith(`${appender}:`));
        const present = new Set(mine.map((r) => (r.event.payload as { n: number }).n));
        for (let n = 0; n <= lastAcked; n += 1) expect(present.has(n)).toBe(true);
        // Per key: a gapless prefix of what was sent, in offset order.
        for (let k = 0; k < KEYS_PER_APPENDER; k += 1) {
          const ns = mine.filter((r) => r.event.key.endsWith(`-key-${k}`)).map((r) => (r.event.payload as { n: number }).n);
          expect(ns).toEqual(ns.map((_, i) => k + i * KEYS_PER_APPENDER));
        }
      }
      await log.append(KILL_TEST_TOPIC, [event('after-restart', 0)]);
      expect((await readAll(log, [KILL_TEST_TOPIC])).some((r) => r.event.id === 'after-restart:0')).toBe(true);
      await log.close();
    }
  }, 30_000);
});

/** Runs the appender child, SIGKILLs it `killAfterMs` after its first ack; returns the last acked n per appender. */
async function appendUntilKilled(runDir: string, appenders: number, killAfterMs: number): Promise<number[]> {
  const child = spawn(process.execPath, ['-r', './scripts/swc-register.cjs', FIXTURE, runDir, String(appenders)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked = range(0, appenders).map(() => -1);
  let stderr = '';
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const match = /^ack (\d+) (\d+)$/.exec(line);
      if (match) acked[Number(match[1])] = Math.max(acked[Number(match[1])], Number(match[2]));
      timer ??= setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    }
  });
  const failsafe = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])));
  clearTimeout(failsafe);
  clearTimeout(timer);
  if (signal !== 'SIGKILL') throw new Error(`appender child ended with code ${code} / ${signal}: ${stderr}`);
  return acked;
}

/** Retention in the specs below: nothing is old enough while a test runs; each runs retention as of an hour later. */
const HOUR = 3_600_000;

describe('FileEventLog: segments and retention', () => {
  it('reads across many segments and seeks into the middle of one, before and after a reopen', async () => {
    const first = await openLog({ partitions: 1, segmentBytes: 4096 });
    for (let i = 0; i < 10; i += 1) await first.append('orders', range(i * 50, 50).map((n) => event('k', n)));
    expect((await segmentFiles(segmentDir('orders', 'k', 1))).length).toBeGreaterThan(10);
    expect((await readAll(first, ['orders'])).map(seq)).toEqual(range(0, 500));
    await first.close();

    const reopened = await openLog({ partitions: 1, segmentBytes: 4096 });
    const fromMiddle = await readAll(reopened, ['orders'], { startAt: async () => '321', maxBatchSize: 7 });
    expect(fromMiddle.map((r) => r.offset)).toEqual(range(321, 179).map(String));
  });

  it('lets a live consumer follow appends across segment rolls', async () => {
    const log = await openLog({ partitions: 1, segmentBytes: 4096 });
    const seen: LogRecord[] = [];
    await log.subscribe({ groupId: 'live', topics: ['orders'], maxBatchSize: 64, handleBatch: async (b) => void seen.push(...b.records) });
    for (let i = 0; i < 20; i += 1) await log.append('orders', range(i * 50, 50).map((n) => event('k', n)));
    await eventually(() => seen.length >= 1000);
    expect(seen.map(seq)).toEqual(range(0, 1000));
    expect((await segmentFiles(segmentDir('orders', 'k', 1))).length).toBeGreaterThan(20);
  });

  it('deletes closed segments past retention, never the active one; consumers continue from the earliest offset', async () => {
    const log = new CapturedLog();
    const events = await openLog({ partitions: 1, segmentBytes: 2048, retentionMs: HOUR, log });
    await events.append('orders', range(0, 10).map((n) => event('k', n)));
    let committed = 0;
    const behind = await events.subscribe({ groupId: 'behind', topics: ['orders'], handleBatch: async (b) => void (committed += b.records.length) });
    await eventually(() => committed === 10);
    await behind.stop();
    for (let i = 1; i < 10; i += 1) await events.append('orders', range(i * 10, 10).map((n) => event('k', n)));
    const partitionDir = segmentDir('orders', 'k', 1);
    const before = await segmentFiles(partitionDir);
    expect(before.length).toBeGreaterThan(3);

    await events.enforceRetention(Date.now() + HOUR + 1);
    const after = await segmentFiles(partitionDir);
    expect(after).toEqual([before[before.length - 1]]);
    expect(log.has('info', 'retention deleted a segment')).toBe(true);

    const earliest = Number(after[0].replace('.log', ''));
    expect(earliest).toBeGreaterThan(10);
    await events.append('orders', [event('k', 100)]);
    const resumed: LogRecord[] = [];
    const again = await events.subscribe({ groupId: 'behind', topics: ['orders'], handleBatch: async (b) => void resumed.push(...b.records) });
    await eventually(async () => (await again.lag()) === 0);
    expect(resumed[0].offset).toBe(String(earliest));
    expect(resumed[resumed.length - 1].offset).toBe('100');
    expect(resumed.map(seq)).toEqual(range(earliest, 101 - earliest));
  });
});

describe('FileEventLog: records with their stored bytes', () => {
  it('hands each record its stored JSON, across segments', async () => {
    const log = await openLog({ partitions: 1, segmentBytes: 4096 });
    for (let i = 0; i < 4; i += 1) await log.append('orders', range(i * 50, 50).map((n) => event('k', n)));
    const asRecords: string[][] = [];
    await log.subscribe({
      groupId: 'payloads',
      topics: ['orders'],
      maxBatchSize: 30,
      handleBatch: async (batch) => {
        asRecords.push(...batch.records.map((r) => [r.offset, r.payload!.toString('utf8')]));
      },
    });
    await eventually(() => asRecords.length >= 200);
    expect(asRecords.map(([offset, json]) => [offset, (JSON.parse(json) as EventEnvelope).id])).toEqual(range(0, 200).map((n) => [String(n), `k:${n}`]));
  });
});

describe('FileEventLog: retention of some topics', () => {
  it('deletes old segments only of the topics retention applies to', async () => {
    const events = await openLog({ partitions: 1, segmentBytes: 2048, retentionMs: HOUR, retentionTopics: ['requests'] });
    for (const topic of ['requests', 'tokens']) {
      for (let i = 0; i < 5; i += 1) await events.append(topic, range(i * 10, 10).map((n) => event('k', n)));
    }
    const before = { requests: await segmentFiles(segmentDir('requests', 'k', 1)), tokens: await segmentFiles(segmentDir('tokens', 'k', 1)) };
    expect(before.requests.length).toBeGreaterThan(2);
    await events.enforceRetention(Date.now() + HOUR + 1);
    expect(await segmentFiles(segmentDir('requests', 'k', 1))).toEqual([before.requests[before.requests.length - 1]]);
    expect(await segmentFiles(segmentDir('tokens', 'k', 1))).toEqual(before.tokens);
  });
});

describe('FileEventLog: lock', () => {
  it('refuses a second open of the same directory until the first is closed', async () => {
    const first = await openLog();
    await expect(FileEventLog.open({ dir })).rejects.toThrow(/locked by pid/);
    await first.close();
    await expect(openLog()).resolves.toBeInstanceOf(FileEventLog);
  });

  it('refuses a directory locked by another live process', async () => {
    await writeFile(path.join(dir, 'LOCK'), `${process.ppid}\n`);
    await expect(FileEventLog.open({ dir })).rejects.toThrow(new RegExp(`locked by pid ${process.ppid}`));
  });

  it('takes over a stale lock left by a dead process', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.once('exit', resolve));
    await writeFile(path.join(dir, 'LOCK'), `${dead.pid}\n`);
    const log = new CapturedLog();
    await openLog({ log });
    expect(log.has('warn', 'took over a stale lock')).toBe(true);
    expect((await readFile(path.join(dir, 'LOCK'), 'utf8')).trim()).toBe(String(process.pid));
  });
});

describe('FileEventLog: consumer groups', () => {
  it("removes a group's temporary offsets files left by a crash before their rename when the group is opened", async () => {
    const groups = path.join(dir, 'groups');
    await mkdir(groups, { recursive: true });
    const leftover = path.join(groups, 'group-g.json.tmp-0badf00d');
    await writeFile(leftover, '{"groupId":"g"');
    const log = await openLog();
    await log.append('orders', [event('k', 0)]);
    expect(await readAll(log, ['orders'], { groupId: 'g' })).toHaveLength(1);
    expect(await readdir(groups)).toEqual(['group-g.json']);
  });
});

describe('FileEventLog: appends', () => {
  it('keeps call order for concurrent appends of one key, and reports durable offsets', async () => {
    const log = await openLog();
    await Promise.all(range(0, 100).map((i) => log.append('orders', range(i * 3, 3).map((n) => event('k', n)))));
    expect((await readAll(log, ['orders'])).map(seq)).toEqual(range(0, 300));
  });

  it('rejects an invalid topic name and an unencodable event without storing anything', async () => {
    const log = await openLog();
    await expect(log.append('../escape', [event('k', 0)])).rejects.toThrow(/invalid topic name/);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(log.append('orders', [event('k', 0), { ...event('k', 1), payload: circular }])).rejects.toThrow();
    await log.append('orders', [event('k', 2)]);
    expect((await readAll(log, ['orders'])).map((r) => r.offset)).toEqual(['0']);
  });

  it('refuses a batch holding an event over 16 MiB with EventTooLargeError, storing none of it', async () => {
    const log = await openLog();
    const huge = { ...event('k', 1), payload: { n: 1, text: 'x'.repeat(16 * 1024 * 1024) } };
    const refused = log.append('orders', [event('k', 0), huge]);
    await expect(refused).rejects.toBeInstanceOf(EventTooLargeError);
    await expect(refused).rejects.toMatchObject({ limitBytes: 16 * 1024 * 1024, bytes: expect.any(Number) });
    await log.append('orders', [event('k', 2)]);
    expect((await readAll(log, ['orders'])).map(seq)).toEqual([2]);
  });

  it('keeps call order between a large append (encoded in slices) and a small one called after it', async () => {
    const log = await openLog();
    const large = log.append('orders', range(0, 3 * ENCODE_SLICE).map((n) => event('k', n)));
    const small = log.append('orders', [event('k', 3 * ENCODE_SLICE)]);
    await Promise.all([large, small]);
    expect((await readAll(log, ['orders'])).map(seq)).toEqual(range(0, 3 * ENCODE_SLICE + 1));
  });

  it('stores nothing of a large append whose last slice holds an event it cannot encode', async () => {
    const log = await openLog();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const events = [...range(0, 2 * ENCODE_SLICE).map((n) => event('k', n)), { ...event('k', -1), payload: circular }];
    await expect(log.append('orders', events)).rejects.toThrow();
    await log.append('orders', [event('k', 2)]);
    expect((await readAll(log, ['orders'])).map(seq)).toEqual([2]);
  });

  it('refuses appends and subscriptions after close()', async () => {
    const log = await openLog();
    await log.close();
    await expect(log.append('orders', [event('k', 0)])).rejects.toThrow(/closed/);
    await expect(log.check()).rejects.toThrow(/closed/);
  });
});

describe('FileEventLog: failed batches', () => {
  it('retries a failed batch even when its retry time has passed before the loop goes idle (no new append to wake it)', async () => {
    // A zero backoff makes the retry time lie in the past by the time the loop decides whether to wait,
    // which a slow machine reaches with the default 100 ms backoff too.
    const log = await openLog({ handlerBackoff: { initialMs: 0, maxMs: 0 } });
    await log.append('orders', range(0, 6).map((n) => event('k', n)));
    const delivered: number[][] = [];
    let failed = false;
    const subscription = await log.subscribe({
      groupId: 'retrying',
      topics: ['orders'],
      maxBatchSize: 3,
      handleBatch: async (batch) => {
        delivered.push(batch.records.map(seq));
        if (!failed && batch.records.some((r) => seq(r) === 4)) {
          failed = true;
          throw new Error('store unavailable');
        }
      },
    });
    await eventually(() => delivered.flat().filter((n) => n === 5).length >= 2);
    await subscription.stop();
    expect(delivered).toEqual([[0, 1, 2], [3, 4, 5], [3, 4, 5]]);
  });
});
