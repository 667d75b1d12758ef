import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readAt, writeFully } from './file-io';

/** A handle whose writes and reads move at most `step` bytes, as a short write or read may. */
function shortHandle(handle: FileHandle, step: number): FileHandle {
  return {
    write: (buffer: Uint8Array, offset: number, length: number, position: number) => handle.write(buffer, offset, Math.min(length, step), position),
    read: (buffer: Uint8Array, offset: number, length: number, position: number) => handle.read(buffer, offset, Math.min(length, step), position),
  } as unknown as FileHandle;
}

describe('positional file I/O', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'bpc-file-io-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes all bytes at the position even when each write is short', async () => {
    const file = path.join(dir, 'data');
    await writeFile(file, 'abcdefgh');
    const handle = await open(file, 'r+');
    try {
      await writeFully(shortHandle(handle, 3), Buffer.from('0123456789'), 4);
    } finally {
      await handle.close();
    }
    expect(await readFile(file, 'utf8')).toBe('abcd0123456789');
  });

  it('reads exactly the bytes asked for across short reads, fewer only at end of file', async () => {
    const file = path.join(dir, 'data');
    await writeFile(file, 'abcdefghij');
    const handle = await open(file, 'r');
    try {
      expect((await readAt(shortHandle(handle, 3), 1, 7)).toString()).toBe('bcdefgh');
      expect((await readAt(handle, 6, 100)).toString()).toBe('ghij');
    } finally {
      await handle.close();
    }
  });
});
