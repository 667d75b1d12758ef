import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes a directory entry change (create, rename, unlink) durable: without
 * it a crash can forget a new or renamed file even though its contents were
 * fsync'd.
 */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Publishes a file someone else wrote (e.g. the engine) under its final
 * name: fsync of its contents, rename over the target, fsync of the
 * directory. A reader sees the old file or the whole new one.
 */
export async function publishFile(written: string, file: string): Promise<void> {
  const handle = await open(written, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await renameDurably(written, file);
}

/** Replaces `file` atomically and durably with `data`, through a temporary file beside it (the directory is created if missing). */
export async function writeFileAtomic(file: string, data: Buffer | string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp-${randomBytes(4).toString('hex')}`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await renameDurably(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

async function renameDurably(from: string, to: string): Promise<void> {
  await rename(from, to);
  await fsyncDir(path.dirname(to));
}
