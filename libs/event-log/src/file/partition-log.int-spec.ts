import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LogSink } from '@bpc/domain';
import { PartitionLog } from './partition-log';

const silent: LogSink = { info: () => undefined, warn: () => undefined, error: () => undefined };
const payloads = (from: number, count: number) => Array.from({ length: count }, (_, i) => Buffer.from(`{"n":${from + i}}`));
const texts = (records: readonly { payload: Buffer }[]) => records.map((r) => r.payload.toString());

/** Overwrites every byte of the partition's one segment file, so only bytes kept in memory can still decode. */
async function scribbleOverSegment(dir: string): Promise<void> {
  const [file] = await readdir(dir);
  const handle = await open(path.join(dir, file), 'r+');
  const { size } = await handle.stat();
  await handle.write(Buffer.alloc(size, 0x5a), 0, size, 0);
  await handle.close();
}

describe('PartitionLog: the last write, kept in memory', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'bpc-partition-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('hands a reader that keeps up the records just appended without reading them back from the file', async () => {
    const log = await PartitionLog.open(dir, 't', 0, { segmentBytes: 1 << 20, log: silent });
    const cursor = log.openCursor(0);
    await log.append(payloads(0, 3));
    expect(texts(await log.read(cursor, 10))).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
    await log.append(payloads(3, 2));
    await scribbleOverSegment(dir);
    // Served from the bytes of the last write; a fresh cursor on the file below them finds the damage.
    expect(texts(await log.read(cursor, 10))).toEqual(['{"n":3}', '{"n":4}']);
    await expect(log.read(log.openCursor(0), 10)).rejects.toThrow();
    await log.close();
  });

  it('reads the file for a reader behind the last write', async () => {
    const log = await PartitionLog.open(dir, 't', 0, { segmentBytes: 1 << 20, log: silent });
    const behind = log.openCursor(0);
    await log.append(payloads(0, 2));
    await log.append(payloads(2, 2));
    expect(texts(await log.read(behind, 10))).toEqual(['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}']);
    await log.close();
  });
});
