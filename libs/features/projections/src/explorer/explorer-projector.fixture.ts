import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileEventLog } from '@bpc/event-log';
import { ChdbExecutor, EXPLORER_DDL_DIR, ExplorerStore, InsertBatch } from '@bpc/explorer-store';

/** The real engines of an explorer projector spec, in a fresh temporary directory: a migrated chDB store and a file log of two partitions retrying fast; opened before its tests, closed and removed after them. */
export function explorerProjectorEngines(prefix: string): { readonly store: ChdbExecutor; readonly log: FileEventLog } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const engines = {} as { store: ChdbExecutor; log: FileEventLog };

  beforeAll(async () => {
    engines.store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await engines.store.migrate();
    engines.log = await FileEventLog.open({ dir: path.join(dir, 'log'), partitions: 2, handlerBackoff: { initialMs: 5, maxMs: 20 } });
  });

  afterAll(async () => {
    await engines.log?.close();
    await engines.store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  return engines;
}

/** Inserts for real, then fails the first `failures` calls: the write landed, the checkpoint (or offset commit) did not. */
export class CrashAfterInsert implements Partial<ExplorerStore> {
  constructor(
    private readonly inner: ExplorerStore,
    private failures: number,
  ) {}
  query<T>(sql: string, params?: Record<string, unknown>): Promise<T[]> {
    return this.inner.query<T>(sql, params);
  }
  async insert(batch: InsertBatch): Promise<void> {
    await this.inner.insert(batch);
    if (this.failures-- > 0) throw new Error('crash between insert and checkpoint');
  }
}
