import { rmSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { FileEventLog } from '@bpc/event-log';
import { ChdbExecutor, EXPLORER_DDL_DIR } from '@bpc/explorer-store';

/** The real engines of an ExportRunner spec, in `config.data_dir`: opened before its tests, closed and removed after them. */
export function exportRunnerEngines(config: AppConfig): { readonly log: FileEventLog; readonly store: ChdbExecutor } {
  const engines = {} as { log: FileEventLog; store: ChdbExecutor };

  beforeAll(async () => {
    engines.store = new ChdbExecutor({ path: path.join(config.data_dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await engines.store.migrate();
    engines.log = await FileEventLog.open({ dir: path.join(config.data_dir, 'event-log') });
  });

  afterAll(async () => {
    await engines.log?.close();
    await engines.store?.close();
    rmSync(config.data_dir, { recursive: true, force: true });
  });

  return engines;
}
