import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import type { LogSink } from '@bpc/support';

/** Directories this process holds, so a second open in the same process is refused too. */
const heldByThisProcess = new Set<string>();

/**
 * An exclusive lock on a data directory, held through a file that carries the
 * owner's pid. The file is created with O_EXCL, so of two processes starting
 * together only one wins. A lock whose pid is no longer alive (the owner was
 * SIGKILLed or the machine crashed) is stale and is taken over, so a restart
 * after `kill -9` succeeds without manual cleanup. A lock carrying our own pid
 * that this process does not hold is stale as well: containers restart with
 * the same pid.
 *
 * Known limit: pids are recycled, so a stale lock whose pid now belongs to an
 * unrelated live process is reported as held (the message names the pid).
 */
export class PidLock {
  private constructor(
    private readonly file: string,
    private released = false,
  ) {}

  static async acquire(file: string, log: LogSink): Promise<PidLock> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (heldByThisProcess.has(file)) throw lockedError(file, process.pid);
      if (await tryCreate(file)) {
        heldByThisProcess.add(file);
        return new PidLock(file);
      }
      const owner = await readOwner(file);
      if (owner !== undefined && owner !== process.pid && isAlive(owner)) throw lockedError(file, owner);
      // Stale: move it aside under a name unique to us, so two processes
      // taking over the same stale lock cannot delete each other's new lock.
      await moveStaleAside(file, owner, log);
    }
    throw new Error(`cannot acquire the event log lock ${file}: it keeps changing hands`);
  }

  /** Whether the lock file still names this process (someone may have removed the directory). */
  async stillHeld(): Promise<boolean> {
    return !this.released && (await readOwner(this.file)) === process.pid;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    heldByThisProcess.delete(this.file);
    if ((await readOwner(this.file)) === process.pid) await unlink(this.file).catch(() => undefined);
  }
}

/**
 * Creates the lock with our pid already inside: the pid goes into a private
 * temporary file that is then hard-linked into place (atomic, fails if the
 * lock exists), so nobody ever sees an empty lock file.
 */
async function tryCreate(file: string): Promise<boolean> {
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(`${process.pid}\n`);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  try {
    await link(tmp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * Removes a stale lock. It is first renamed to a name private to us; if what
 * we moved turns out to be a fresh lock of a live process (it took the stale
 * lock over between our read and our rename), it is linked back.
 */
async function moveStaleAside(file: string, staleOwner: number | undefined, log: LogSink): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readOwner(aside);
  if (moved !== staleOwner && moved !== undefined && isAlive(moved)) {
    await link(aside, file).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    throw lockedError(file, moved);
  }
  await unlink(aside).catch(() => undefined);
  log.warn({ lockFile: file, stalePid: staleOwner ?? null }, 'event log: took over a stale lock (its process is gone)');
}

async function readOwner(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt((await readFile(file, 'utf8')).trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedError(file: string, pid: number): Error {
  return new Error(`event log directory is locked by pid ${pid} (${file}); another process is using it`);
}
