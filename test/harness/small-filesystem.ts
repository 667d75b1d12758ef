import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A tmpfs of a few MB the test mounted itself, to fill up and free again (tests of a full disk). */
export interface SmallFilesystem {
  readonly dir: string;
  /** Writes a filler file until the filesystem refuses (ENOSPC); answers the bytes it took. */
  fill(): Promise<number>;
  /** Removes the filler file: the space is back. */
  free(): Promise<void>;
  /** Unmounts it (everything on it is gone) and removes its mount point. */
  unmount(): void;
}

const FILLER = '.filler';
const FILL_CHUNK = 64 * 1024;

/** Mounts a tmpfs of `sizeMb` MB on a fresh directory; throws when mounting is not permitted (see `whyNoSmallFilesystem`). */
export function mountSmallFilesystem(sizeMb: number): SmallFilesystem {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-small-fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    throw error;
  }
  const filler = path.join(dir, FILLER);
  return {
    dir,
    fill: () => fillUp(filler),
    free: () => unlink(filler),
    unmount: () => {
      // Lazily when still busy (a failed test left a file open): detached now, freed when the last file closes.
      execFileSync('umount', ['--lazy', dir], { stdio: 'pipe' });
      rmdirSync(dir);
    },
  };
}

/**
 * Why no small filesystem can be mounted here (not root, no CAP_SYS_ADMIN in
 * a container, no `mount`), or undefined when one can: tried once, with a
 * tmpfs of 1 MB mounted and unmounted at once.
 */
export function whyNoSmallFilesystem(): string | undefined {
  try {
    mountSmallFilesystem(1).unmount();
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `mounting a tmpfs is not permitted here: ${stderr || (error as Error).message}`;
  }
}

async function fillUp(file: string): Promise<number> {
  const handle = await open(file, 'a');
  const chunk = Buffer.alloc(FILL_CHUNK, 0x2e);
  let bytes = 0;
  try {
    // A short write leaves the last bytes of room taken; the next write is refused.
    for (;;) bytes += (await handle.write(chunk, 0, chunk.length)).bytesWritten;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await handle.close();
  }
  return bytes;
}
