import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { AppError } from '@bpc/domain';
import type { ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, LOGGER } from '@bpc/platform';
import type { Logger } from 'pino';
import { openOperatorSqlStore } from './open-operator-sql-store';
import { operatorSqlError } from './operator-sql-error';

/**
 * The operator's SQL console (`npm run cli -- sql`): one statement per call
 * on chDB's data, through an executor whose connections the engine keeps
 * read-only with bounded rows and time (`operator_sql`). Opened on first
 * use; a ClickHouse server has a read-only analyst user of its own instead.
 */
@Injectable()
export class OperatorSqlConsole implements OnModuleDestroy {
  private store?: ExplorerStore | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async rows(sql: string): Promise<{ rows: Record<string, unknown>[]; rowCount: number }> {
    const rows = await this.run((store) => store.query(sql));
    return { rows, rowCount: rows.length };
  }

  /** The engine's CSV, a header line first; bounded by `max_result_rows`. */
  async csv(sql: string): Promise<Buffer> {
    return this.run(async (store) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of store.streamRaw(sql, undefined, 'CSVWithNames')) chunks.push(chunk);
      return Buffer.concat(chunks);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.store?.close();
  }

  private async run<T>(work: (store: ExplorerStore) => Promise<T>): Promise<T> {
    const store = this.openStore();
    try {
      return await work(store);
    } catch (error) {
      throw operatorSqlError(error, this.config.operator_sql);
    }
  }

  private openStore(): ExplorerStore {
    if (this.store === undefined) this.store = openOperatorSqlStore(this.config, this.logger.child({ component: 'operator-sql' })) ?? null;
    if (this.store === null) {
      throw new AppError('FEATURE_DISABLED', 'the explorer store is a ClickHouse server: query it directly as its read-only analyst user (docs/analysts.md)');
    }
    return this.store;
  }
}
