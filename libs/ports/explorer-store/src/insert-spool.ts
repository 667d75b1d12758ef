import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Names this process gives its files: a crashed run's leftovers never share it, even with the same pid. */
const RUN = `${process.pid}-${randomUUID()}-`;
/** Directories whose leftovers this process has cleared (one chDB data directory per process, see ChdbExecutor). */
const cleared = new Set<string>();
let sequence = 0;
/** What ClickHouse expands in a file path (`*`, `?`, `{a,b}`, `{1..9}`), even inside a quoted literal. */
const GLOB = /[*?{}]/;

/**
 * Where chDB inserts take their rows from: each insert's JSONEachRow bytes
 * are written to a file of their own here and read back by the engine
 * (`INSERT … FROM INFILE`). Handing the engine the bytes inline instead puts
 * them into the query text, which the engine copies and scans before it
 * parses a row: about 3 µs more CPU per bot-request row than reading the
 * file (through the page cache; the file is gone before it would be flushed).
 *
 * Files of an earlier run (a crash mid-insert) are removed before this
 * process first writes here: the engine holds a data directory for one
 * process at a time.
 */
export class InsertSpool {
  constructor(readonly dir: string) {
    if (GLOB.test(dir)) throw new Error(`chDB data directory ${dir} contains one of * ? { }, which the engine reads as a file pattern: choose a data_dir without them`);
  }

  /** Runs `insert` with a file holding `chunks` one after the other, removed once it settles. */
  async withRowsFile<T>(chunks: readonly Uint8Array[], insert: (file: string) => Promise<T>): Promise<T> {
    await this.prepare();
    const file = join(this.dir, `${RUN}${(sequence += 1)}.jsonl`);
    await writeFile(file, chunks, { flag: 'wx' });
    try {
      return await insert(file);
    } finally {
      // A file that cannot be removed now is a leftover for the next start: the insert's outcome stands.
      await rm(file, { force: true }).catch(() => undefined);
    }
  }

  private async prepare(): Promise<void> {
    if (cleared.has(this.dir)) return;
    await mkdir(this.dir, { recursive: true });
    const leftovers = (await readdir(this.dir)).filter((name) => !name.startsWith(RUN));
    await Promise.all(leftovers.map((name) => rm(join(this.dir, name), { force: true })));
    cleared.add(this.dir);
  }
}
