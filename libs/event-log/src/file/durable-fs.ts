import { open, rename } from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes a directory entry change (create, rename, unlink) durable: without
 * it a crash can forget a new segment file or a renamed offsets file even
 * though their contents were fsync'd.
 */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `file` atomically and durably: write a temporary file, fsync it, rename it over, fsync the directory. */
export async function writeFileDurably(file: string, data: string | Buffer): Promise<void> {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
  await fsyncDir(path.dirname(file));
}

/** Writes all of `buffer` at `position` (a single write may be short). */
export async function writeFully(handle: import('node:fs/promises').FileHandle, buffer: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, done, buffer.length - done, position + done);
    done += bytesWritten;
  }
}

/** Reads exactly `length` bytes at `position`, or fewer only at end of file. */
export async function readAt(handle: import('node:fs/promises').FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}
