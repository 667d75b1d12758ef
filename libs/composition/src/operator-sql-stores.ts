import type { AppConfig } from '@bpc/config';
import { openChdbOperatorSqlStores, type OpenOperatorSqlStores } from '@bpc/public-api';

/**
 * The operator's SQL console runs on chDB's own data; a ClickHouse server has
 * a read-only analyst user of its own instead (docs/analysts.md), so the
 * console has no stores there.
 */
export function operatorSqlStoresOpener(config: AppConfig): OpenOperatorSqlStores {
  switch (config.adapters.explorer_store) {
    case 'chdb':
      return (log) => openChdbOperatorSqlStores(config, log);
    case 'clickhouse':
      return () => undefined;
  }
}
