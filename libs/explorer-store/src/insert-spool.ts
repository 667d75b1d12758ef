import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories whose leftovers this process has cleared (one chDB data directory per process, see ChdbExecutor). */
const cleared = new Set<string>();
let sequence = 0;

/**
 * Where chDB inserts take their rows from: each insert's JSONEachRow bytes
 * are written to a file of their own here and read back by the engine
 * (`INSERT … FROM INFILE`). Handing the engine the bytes inline instead puts
 * them into the query text, which the engine copies and scans before it
 * parses a row: about 3 µs more CPU per bot-request row than reading the
 * file (through the page cache; the file is gone before it would be flushed).
 *
 * Files are named `<pid>-<n>.jsonl`: those of another process are leftovers
 * of a crash (a data directory is open in one process at a time) and are
 * removed before this process first writes here.
 */
export class InsertSpool {
  constructor(readonly dir: string) {}

  /** Runs `insert` with a file holding `rows`, removed once it settles. */
  async with<T>(rows: Uint8Array, insert: (file: string) => Promise<T>): Promise<T> {
    await this.prepare();
    const file = join(this.dir, `${process.pid}-${(sequence += 1)}.jsonl`);
    try {
      await writeFile(file, rows, { flag: 'wx' });
      return await insert(file);
    } finally {
      await rm(file, { force: true });
    }
  }

  private async prepare(): Promise<void> {
    if (cleared.has(this.dir)) return;
    await mkdir(this.dir, { recursive: true });
    const own = `${process.pid}-`;
    const leftovers = (await readdir(this.dir)).filter((name) => !name.startsWith(own));
    await Promise.all(leftovers.map((name) => rm(join(this.dir, name), { force: true })));
    cleared.add(this.dir);
  }
}
