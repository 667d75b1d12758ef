import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LogSink } from '@bpc/support';
import { PartitionLog } from './partition-log';
import { frameSize, type StoredPayloads } from './record-framing';

const silent: LogSink = { info: () => undefined, warn: () => undefined, error: () => undefined };
const payloads = (from: number, count: number) => Array.from({ length: count }, (_, i) => Buffer.from(`{"n":${from + i}}`));
const texts = (records: StoredPayloads) => Array.from({ length: records.count }, (_, i) => records.buffer.toString('utf8', records.starts[i], records.ends[i]));
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => `{"n":${from + i}}`);

/** Overwrites `length` bytes from `from` of the segment file `index` (in name order), so only bytes kept in memory can still decode there. */
async function scribble(dir: string, from = 0, length?: number, index = 0): Promise<void> {
  const file = path.join(dir, (await readdir(dir)).sort()[index]);
  const handle = await open(file, 'r+');
  const size = length ?? (await handle.stat()).size - from;
  await handle.write(Buffer.alloc(size, 0x5a), 0, size, from);
  await handle.close();
}

describe('PartitionLog: the last write, kept in memory', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'bpc-partition-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const openLog = (segmentBytes = 1 << 20) => PartitionLog.open(dir, 't', 0, { segmentBytes, log: silent });

  it('hands a reader that keeps up the records just appended without reading them back from the file', async () => {
    const log = await openLog();
    const cursor = log.openCursor(0);
    await log.append(payloads(0, 3));
    expect(texts(await log.read(cursor, 10))).toEqual(range(0, 3));
    await log.append(payloads(3, 2));
    await scribble(dir);
    // Served from the bytes of the last write; a fresh cursor on the file below them finds the damage.
    expect(texts(await log.read(cursor, 10))).toEqual(range(3, 2));
    await expect(log.read(log.openCursor(0), 10)).rejects.toThrow('event log corruption');
    await log.close();
  });

  it('reads the file for a reader behind the last write', async () => {
    const log = await openLog();
    await log.append(payloads(0, 2));
    await log.append(payloads(2, 2));
    await scribble(dir, 0, frameSize(payloads(0, 1)[0]));
    await expect(log.read(log.openCursor(0), 10)).rejects.toThrow('event log corruption');
    await log.close();
  });

  it('serves a reader taking fewer records than a write from memory, then the next write after it', async () => {
    const log = await openLog();
    const cursor = log.openCursor(0);
    await log.append(payloads(0, 5));
    await scribble(dir);
    expect(texts(await log.read(cursor, 2))).toEqual(range(0, 2));
    await log.append(payloads(5, 2));
    await scribble(dir);
    expect(texts(await log.read(cursor, 10))).toEqual(range(2, 3));
    expect(texts(await log.read(cursor, 10))).toEqual(range(5, 2));
    await log.close();
  });

  it('follows a write split across a segment roll: the new segment from memory, the closed one from its file', async () => {
    const one = frameSize(payloads(0, 1)[0]);
    const log = await openLog(3 * one);
    const cursor = log.openCursor(0);
    await log.append(payloads(0, 5));
    expect(texts(await log.read(cursor, 10))).toEqual(range(0, 3));
    await scribble(dir, 0, undefined, 1);
    expect(texts(await log.read(cursor, 10))).toEqual(range(3, 2));
    await log.close();
  });
});
