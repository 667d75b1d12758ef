import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileEventLog, LogRecord } from '@bpc/event-log';
import { BotRequestRecordedPayload, TOPICS } from '@bpc/events';
import { recordedBotRequest, testConfig, until } from '@bpc/testing';
import pino from 'pino';
import { Registry } from 'prom-client';
import { BotRequestRecorder } from './bot-request-recorder';
import { BotRequestSpill } from './bot-request-spill';

interface LogLine {
  readonly msg: string;
  readonly lost?: number;
  readonly spilled?: number;
  readonly spillError?: string;
}

/** A recorder on `log` (the real file log, closed to refuse appends) spilling into `spillDir`; its log lines about the shutdown. */
function recorderOn(log: FileEventLog, spillDir: string, maxSpillBytes?: number) {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'warn' },
    {
      write: (text: string) => {
        const line = JSON.parse(text) as LogLine;
        if (line.msg.includes('at shutdown')) lines.push(line);
      },
    },
  );
  const config = testConfig('standalone', { edge: { record_buffer_max: 100, record_batch_max: 3, record_flush_ms: 10 } });
  const spill = new BotRequestSpill(spillDir, { append: (events) => log.append(TOPICS.botRequests, events) }, logger, maxSpillBytes);
  const recorder = new BotRequestRecorder(config, log, logger, new Registry(), 300, spill);
  recorder.onModuleInit();
  return { recorder, lines };
}

/** The bot request events of the log, as request ids in order, and how many records carried each event id. */
async function recordedIn(log: FileEventLog, expected: number): Promise<{ requestIds: string[]; eventIds: string[] }> {
  const records: LogRecord[] = [];
  const subscription = await log.subscribe({ groupId: `check-${Date.now()}`, topics: [TOPICS.botRequests], handleBatch: async (batch) => void records.push(...batch.records) });
  await until(() => records.length >= expected, { what: () => `${expected} records (${records.length} so far)` });
  await until(async () => (await subscription.lag()) === 0);
  await subscription.stop();
  return { requestIds: records.map((r) => (r.event.payload as BotRequestRecordedPayload).requestId), eventIds: records.map((r) => r.event.id) };
}

const spillFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.ndjson'));

describe('BotRequestRecorder: requests the log cannot take at shutdown', () => {
  let dir: string;
  let logDir: string;
  let spillDir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bpc-spill-'));
    logDir = path.join(dir, 'log');
    spillDir = path.join(dir, 'spill');
  });

  it('are spilled to a file and appended at the next start, each once, with the ids they were recorded with', async () => {
    const down = await FileEventLog.open({ dir: logDir });
    await down.close();
    const first = recorderOn(down, spillDir);
    for (let n = 1; n <= 7; n += 1) first.recorder.record(recordedBotRequest(n));
    await first.recorder.onApplicationShutdown();
    expect(first.recorder.pending()).toBe(0);
    expect(first.lines).toEqual([expect.objectContaining({ spilled: 7, msg: 'event log unreachable at shutdown: bot requests spilled to disk, appended at the next start' })]);
    const [file] = spillFiles(spillDir);
    const spilledIds = readFileSync(path.join(spillDir, file), 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
    expect(spilledIds).toHaveLength(7);

    // The next start, with the log back: the spill is appended, then removed.
    const back = await FileEventLog.open({ dir: logDir });
    const second = recorderOn(back, spillDir);
    await until(() => spillFiles(spillDir).length === 0, { what: 'spill file appended and removed' });
    await second.recorder.onApplicationShutdown();
    const recorded = await recordedIn(back, 7);
    // Two websites, two partitions: order holds per website only.
    expect([...recorded.requestIds].sort()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
    expect([...recorded.eventIds].sort()).toEqual([...spilledIds].sort());
    await back.close();
  });

  it('keeps the newest that fit within the bound, and logs how many were lost, also when the spill cannot be written at all', async () => {
    const down = await FileEventLog.open({ dir: logDir });
    await down.close();
    // Room for two or three events of about 500 bytes.
    const bounded = recorderOn(down, spillDir, 1_500);
    for (let n = 1; n <= 5; n += 1) bounded.recorder.record(recordedBotRequest(n));
    await bounded.recorder.onApplicationShutdown();
    const kept = readFileSync(path.join(spillDir, spillFiles(spillDir)[0]), 'utf8').trim().split('\n');
    expect(kept.join('\n').length).toBeLessThanOrEqual(1_500);
    expect([2, 3]).toContain(kept.length);
    // The newest ones.
    expect(kept.map((line) => (JSON.parse(line) as { payload: BotRequestRecordedPayload }).payload.requestId)).toEqual(['r3', 'r4', 'r5'].slice(3 - kept.length));
    expect(bounded.lines).toEqual([
      expect.objectContaining({ spilled: kept.length }),
      expect.objectContaining({ lost: 5 - kept.length, msg: 'event log unreachable at shutdown: bot requests not recorded' }),
    ]);

    // A spill directory that cannot be made (a file in its place).
    const blocked = path.join(dir, 'blocked');
    writeFileSync(blocked, '');
    const unwritable = recorderOn(down, path.join(blocked, 'spill'));
    for (let n = 1; n <= 4; n += 1) unwritable.recorder.record(recordedBotRequest(n));
    await unwritable.recorder.onApplicationShutdown();
    expect(unwritable.lines).toEqual([expect.objectContaining({ lost: 4, spillError: expect.stringMatching(/ENOTDIR|EEXIST/) })]);
  });
});
