import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { LogSink } from '@bpc/support';
import { ExplorerStoreError, toExplorerStoreError } from './explorer-store-error';
import { splitSqlStatements } from './sql-statements';

export interface DdlFile {
  readonly name: string;
  readonly statements: readonly string[];
}

/** `dir`, or a clear error for an executor opened without one that is asked to migrate. */
export function ddlDirOf(dir: string | undefined): string {
  if (dir === undefined) throw new Error('this explorer store was opened without ddlDir: it cannot migrate');
  return dir;
}

/** Every `*.sql` file under `dir` (one folder per table) in file name order, whatever its folder, split into statements. */
export async function readDdlFiles(dir: string): Promise<DdlFile[]> {
  const paths = (await readdir(dir, { recursive: true })).filter((path) => path.endsWith('.sql'));
  const inOrder = paths.map((path) => ({ path, name: basename(path) })).sort((a, b) => byCodeUnit(a.name, b.name));
  return Promise.all(inOrder.map(async ({ path, name }) => ({ name, statements: splitSqlStatements(await readFile(join(dir, path), 'utf8')) })));
}

/**
 * Applies the DDL files one statement at a time, in order. There is no
 * bookkeeping table: every statement must be idempotent (`IF NOT EXISTS`), and
 * all of them run on every boot.
 */
export async function applyDdl(dir: string, run: (sql: string) => Promise<void>, log: LogSink): Promise<void> {
  for (const file of await readDdlFiles(dir)) {
    for (const statement of file.statements) await run(statement).catch((err) => failIn(file.name, err));
    log.info({ file: file.name, statements: file.statements.length }, 'explorer store DDL applied');
  }
}

function failIn(file: string, err: unknown): never {
  const cause = toExplorerStoreError(err);
  throw new ExplorerStoreError(`${file}: ${cause.message}`, cause.clickhouseCode, cause.clickhouseType, { cause });
}

// Locale-independent order, so `010_x.sql` sorts the same on every machine.
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
