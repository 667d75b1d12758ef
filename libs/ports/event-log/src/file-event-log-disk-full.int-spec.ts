import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LogSink } from '@bpc/support';
import type { EventEnvelope } from '@bpc/events';
import { mountSmallFilesystem, SmallFilesystem, until, whyNoSmallFilesystem } from '@bpc/testing';
import { FileEventLog } from './file-event-log';
import { decodeFrames } from './file/record-framing';

const TOPIC = 'disk-full';
const cannotMount = whyNoSmallFilesystem();
if (cannotMount) process.stdout.write(`file-event-log-disk-full.int-spec skipped: ${cannotMount}\n`);
const describeWithMount = cannotMount ? describe.skip : describe;

/** An event of about 2 KB, numbered `n`, on one key (one partition, so offsets follow call order). */
const event = (n: number): EventEnvelope => ({
  type: 'Filler',
  version: 1,
  id: `e-${n}`,
  occurredAt: new Date(0).toISOString(),
  key: 'k',
  payload: { n, text: 'x'.repeat(2_000) },
});

/** The numbers of every event stored in `topic`, read with a fresh consumer group. */
async function storedNumbers(log: FileEventLog): Promise<number[]> {
  const seen: number[] = [];
  const subscription = await log.subscribe({ groupId: `check-${Date.now()}`, topics: [TOPIC], handleBatch: async (batch) => void seen.push(...batch.records.map((r) => (r.event.payload as { n: number }).n)) });
  await until(async () => (await subscription.lag()) === 0, { what: 'reader caught up' });
  await subscription.stop();
  return seen;
}

/** Every segment file of the topic decodes whole: it ends at the last whole record, no torn tail. */
async function segmentsEndOnWholeRecords(dir: string): Promise<void> {
  const partitionDir = path.join(dir, 'topics', TOPIC, '0');
  for (const name of (await readdir(partitionDir)).filter((n) => n.endsWith('.log'))) {
    const bytes = await readFile(path.join(partitionDir, name));
    const decoded = decodeFrames(bytes, 0, Number(name.slice(0, 20)));
    expect({ name, decodedTo: decoded.nextPosition, stop: decoded.stop.kind }).toEqual({ name, decodedTo: bytes.length, stop: 'end' });
  }
}

describeWithMount('FileEventLog on a disk that fills up, then gets space back', () => {
  let fs: SmallFilesystem;
  beforeAll(() => (fs = mountSmallFilesystem(1)));
  afterAll(() => fs?.unmount());

  it('refuses appends while full, cuts the torn tail and takes appends again once space is freed, without a restart, losing nothing acknowledged', async () => {
    const warnings: string[] = [];
    const log: LogSink = { info: () => undefined, warn: (_, message) => void warnings.push(message), error: (_, message) => void warnings.push(message) };
    const dir = path.join(fs.dir, 'log');
    const eventLog = await FileEventLog.open({ dir, partitions: 1, log });
    const acknowledged: number[] = [];
    let n = 0;
    for (; n < 20; n += 1) {
      await eventLog.append(TOPIC, [event(n)]);
      acknowledged.push(n);
    }
    expect(await fs.fill()).toBeGreaterThan(0);

    // Batches of five ~2 KB events: the first that does not fit is refused (part of it may have reached the file).
    const refused: number[] = [];
    const refusal = await eventLog.append(TOPIC, [0, 1, 2, 3, 4].map((i) => event(n + i))).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refusal?.message).toMatch(/ENOSPC/);
    refused.push(n, n + 1, n + 2, n + 3, n + 4);
    n += 5;
    await expect(eventLog.check()).rejects.toThrow(/takes no appends until a failed write is repaired \(retrying\): .*ENOSPC/);
    await expect(eventLog.append(TOPIC, [event(n)])).rejects.toThrow();
    refused.push(n);
    n += 1;

    await fs.free();
    // Readiness follows: the partition repaired itself.
    await until(() => eventLog.check().then(() => true, () => false), { what: 'event log ready again after space was freed' });
    await segmentsEndOnWholeRecords(dir);
    for (const next of [n, n + 1]) {
      await eventLog.append(TOPIC, [event(next)]);
      acknowledged.push(next);
    }
    expect(await storedNumbers(eventLog)).toEqual(acknowledged);
    expect(warnings).toContain('event log: append failed; the partition takes no appends until it is repaired (retried with backoff)');
    await eventLog.close();

    // What a restart reads: every acknowledged event once, in order, none of the refused ones.
    const reopened = await FileEventLog.open({ dir, partitions: 1 });
    try {
      expect(await storedNumbers(reopened)).toEqual(acknowledged);
      await segmentsEndOnWholeRecords(dir);
    } finally {
      await reopened.close();
    }
    expect(refused.filter((r) => acknowledged.includes(r))).toEqual([]);
  }, 40_000);
});
