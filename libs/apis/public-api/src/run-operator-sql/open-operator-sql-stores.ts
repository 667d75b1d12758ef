import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { ChdbExecutor, type ExplorerStore } from '@bpc/explorer-store';
import type { Logger } from 'pino';

/** The engine of the operator's SQL console: chDB's own data, on connections the engine keeps read-only and bounded. */
export interface OperatorSqlStores {
  /** Runs the operator's statements: rows and time bounded by `operator_sql`. */
  readonly statements: ExplorerStore;
  /**
   * Parses them first (`explainSyntaxTree`), on connections of their own
   * because a syntax tree comes as a row per node, as many as the statement
   * has, whatever `max_result_rows` allows its result.
   */
  readonly syntax: ExplorerStore;
}

/**
 * Opens the console's stores, on its first statement; undefined when the
 * deployment's explorer store has none for it. The composition root picks it
 * from `adapters.explorer_store`.
 */
export type OpenOperatorSqlStores = (log: Logger) => OperatorSqlStores | undefined;

export const OPEN_OPERATOR_SQL_STORES = Symbol('OPEN_OPERATOR_SQL_STORES');

// Far more nodes than a statement of the 100,000 characters the console takes can have.
const SYNTAX_TREE_MAX_NODES = 1_000_000;

/** The console's stores on chDB's data directory. */
export function openChdbOperatorSqlStores(config: AppConfig, log: Logger): OperatorSqlStores {
  const dir = path.join(config.data_dir, 'chdb');
  const maxExecutionMs = config.operator_sql.max_execution_ms;
  return {
    statements: new ChdbExecutor({ path: dir, log, readOnly: { maxResultRows: config.operator_sql.max_result_rows, maxExecutionMs } }),
    syntax: new ChdbExecutor({ path: dir, log, readOnly: { maxResultRows: SYNTAX_TREE_MAX_NODES, maxExecutionMs } }),
  };
}
