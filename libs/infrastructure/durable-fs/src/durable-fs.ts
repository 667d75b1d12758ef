import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
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
 * `mkdir -p` that survives a crash: each directory it creates is an entry in
 * its parent, so the parents are synced, from the one that existed down.
 */
export async function mkdirDurably(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  for (let created = path.resolve(dir); ; created = path.dirname(created)) {
    await fsyncDir(path.dirname(created));
    if (created === path.resolve(first)) return;
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

/** `writeFileAtomic` writes `<file>.tmp-<8 hex digits>` beside `file`. */
const TEMP_INFIX = '.tmp-';
const TEMP_RANDOM = /^[0-9a-f]{8}$/;

/** Replaces `file` atomically and durably with `data`, through a temporary file beside it (the directory is created durably if missing). */
export async function writeFileAtomic(file: string, data: Buffer | string): Promise<void> {
  await mkdirDurably(path.dirname(file));
  const temp = await writeTemp(file, data, 0o666);
  try {
    await renameDurably(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Creates `file` with `data` (and `mode`) atomically and durably unless it
 * exists: written beside it, then linked into place, which, unlike a rename,
 * never replaces a file. Answers false, writing nothing, when `file` existed.
 */
export async function createFileAtomic(file: string, data: Buffer | string, mode = 0o666): Promise<boolean> {
  await mkdirDurably(path.dirname(file));
  const temp = await writeTemp(file, data, mode);
  try {
    await link(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await fsyncDir(path.dirname(file));
  return true;
}

/**
 * `data` in a new synced temporary file beside `file` (see
 * `removeAtomicWriteLeftovers`); answers its path. A write that failed (a
 * full disk) removes what it wrote, so it does not hold on to the space.
 */
async function writeTemp(file: string, data: Buffer | string, mode: number): Promise<string> {
  const temp = `${file}${TEMP_INFIX}${randomBytes(4).toString('hex')}`;
  const handle = await open(temp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return temp;
}

/**
 * Removes the temporary files `writeFileAtomic` left beside `file` when a
 * crash came before their rename. Only for a caller that is the file's sole
 * writer: it would also remove a concurrent write's temporary file.
 */
export async function removeAtomicWriteLeftovers(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = path.basename(file) + TEMP_INFIX;
  const isTemp = (name: string): boolean => name.startsWith(prefix) && TEMP_RANDOM.test(name.slice(prefix.length));
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await Promise.all(names.filter(isTemp).map((name) => unlink(path.join(dir, name)).catch(ignoreMissing)));
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

async function renameDurably(from: string, to: string): Promise<void> {
  await rename(from, to);
  await fsyncDir(path.dirname(to));
}
