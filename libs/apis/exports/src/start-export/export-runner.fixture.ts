import { rmSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { FileEventLog } from '@bpc/event-log';
import { ChdbExecutor, EXPLORER_DDL_DIR, type ExplorerStore } from '@bpc/explorer-store';
import { FileObjectStore } from '@bpc/object-store';

/** The real engines (and the file object store) of an ExportRunner spec, in `config.data_dir`: opened before its tests, closed and removed after them. */
export function exportRunnerEngines(config: AppConfig): { readonly log: FileEventLog; readonly store: ChdbExecutor; readonly objects: FileObjectStore } {
  const engines = {} as { log: FileEventLog; store: ChdbExecutor; objects: FileObjectStore };

  beforeAll(async () => {
    engines.store = new ChdbExecutor({ path: path.join(config.data_dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await engines.store.migrate();
    engines.log = await FileEventLog.open({ dir: path.join(config.data_dir, 'event-log') });
    // As the composition opens it: export files under data_dir/exports.
    engines.objects = new FileObjectStore(config.data_dir);
  });

  afterAll(async () => {
    await engines.log?.close();
    await engines.store?.close();
    rmSync(config.data_dir, { recursive: true, force: true });
  });

  return engines;
}

/** The real chDB store, its export writes held until the test lets them go (an export that outlasts a shutdown's wait, or its lease). */
export class HeldWrites implements Partial<ExplorerStore> {
  writing = false;
  /** The engine's write, once let go. */
  written?: Promise<unknown>;
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  constructor(private readonly inner: ExplorerStore) {}

  async writeFile(...args: Parameters<ExplorerStore['writeFile']>): ReturnType<ExplorerStore['writeFile']> {
    this.writing = true;
    await this.gate;
    const written = this.inner.writeFile(...args);
    this.written = written;
    return written;
  }

  letGo(): void {
    this.release();
  }
}
