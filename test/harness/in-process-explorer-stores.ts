import { rmSync } from 'node:fs';
import { drainPending } from 'chdb';
import { createChdbConnection } from 'chdb/connection';
import { ChdbExecutor, ClickhouseConnection, ClickhouseHttpExecutor, EXPLORER_DDL_DIR, ExplorerStore } from '@bpc/explorer-store';

/** A name for `describe.each`, and how to open that store on a data directory. */
export type InProcessExplorerStore = [name: string, open: (dir: string) => ExplorerStore];

/**
 * Both explorer store executors on an in-process engine (chDB), for specs
 * that run the same queries through each: standalone mode's ChdbExecutor,
 * and cluster mode's @clickhouse/client executor on chdb/connection, which
 * sends the same SQL and binds arrays as HTTP parameters.
 */
export const IN_PROCESS_EXPLORER_STORES: readonly InProcessExplorerStore[] = [
  ['ChdbExecutor', (dir) => new ChdbExecutor({ path: dir, ddlDir: EXPLORER_DDL_DIR })],
  ['ClickhouseHttpExecutor over chdb/connection', (dir) => new ClickhouseHttpExecutor({ ddlDir: EXPLORER_DDL_DIR, connection: () => createChdbConnection({ path: dir }) as unknown as ClickhouseConnection })],
];

/** Closes a store opened by one of them and removes its directories, once chDB has finished what it had pending. */
export async function closeInProcessExplorerStore(store: ExplorerStore | undefined, ...dirs: string[]): Promise<void> {
  await store?.close();
  await drainPending();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
