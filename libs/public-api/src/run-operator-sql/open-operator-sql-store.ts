import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { ChdbExecutor, type ExplorerStore } from '@bpc/explorer-store';
import type { Logger } from 'pino';

/**
 * The engine the operator's SQL console runs statements on: chDB's own
 * data, on connections the engine keeps read-only and bounded
 * (`operator_sql`). A ClickHouse server has its own read-only analyst user
 * instead (docs/analysts.md): undefined then.
 */
export function openOperatorSqlStore(config: AppConfig, log: Logger): ExplorerStore | undefined {
  switch (config.adapters.explorer_store) {
    case 'chdb':
      return new ChdbExecutor({
        path: path.join(config.data_dir, 'chdb'),
        log,
        readOnly: { maxResultRows: config.operator_sql.max_result_rows, maxExecutionMs: config.operator_sql.max_execution_ms },
      });
    case 'clickhouse':
      return undefined;
  }
}
