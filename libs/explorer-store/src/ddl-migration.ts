import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LogSink } from '@bpc/domain';
import { ExplorerStoreError, toExplorerStoreError } from './explorer-store-error';
import { splitSqlStatements } from './sql-statements';

export interface DdlFile {
  readonly name: string;
  readonly statements: readonly string[];
}

const DDL_SUBDIR = join('deploy', 'clickhouse');

/**
 * Finds `deploy/clickhouse` by walking up from this module, so the same
 * default works from the sources (jest) and from `dist/` (the build does not
 * copy `deploy/`). Deployments without the repository layout pass `ddlDir`.
 */
export function defaultDdlDir(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, DDL_SUBDIR);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`no ${DDL_SUBDIR} directory above ${from}: pass ddlDir`);
  }
}

/** Every `*.sql` file of `dir` in name order, split into statements. */
export async function readDdlFiles(dir: string): Promise<DdlFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort(byCodeUnit);
  return Promise.all(
    names.map(async (name) => ({ name, statements: splitSqlStatements(await readFile(join(dir, name), 'utf8')) })),
  );
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
