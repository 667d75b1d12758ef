import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { AppError } from '@bpc/domain';
import type { ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, LOGGER } from '@bpc/platform';
import type { Logger } from 'pino';
import { explainSyntaxTree } from './explain-syntax-tree';
import { OPEN_OPERATOR_SQL_STORES, type OpenOperatorSqlStores, type OperatorSqlStores } from './open-operator-sql-stores';
import { operatorSqlError, statementRefused } from './operator-sql-error';
import { refusalOf } from './statement-refusal';
import { parseSyntaxTree } from './syntax-tree';

/**
 * The operator's SQL console (`npm run cli -- sql`): one statement per call
 * on chDB's data, through an executor whose connections the engine keeps
 * read-only with bounded rows and time (`operator_sql`). Each statement is
 * parsed by the engine first, and what read-only mode would let through
 * (`refusalOf`: INTO OUTFILE, SYSTEM …) is refused before it runs. Opened on
 * first use; a ClickHouse server has a read-only analyst user of its own
 * instead.
 */
@Injectable()
export class OperatorSqlConsole implements OnModuleDestroy {
  private stores?: OperatorSqlStores | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(OPEN_OPERATOR_SQL_STORES) private readonly openOperatorSqlStores: OpenOperatorSqlStores,
  ) {}

  async rows(sql: string): Promise<{ rows: Record<string, unknown>[]; rowCount: number }> {
    const rows = await this.run(sql, (store) => store.query(sql));
    return { rows, rowCount: rows.length };
  }

  /** The engine's CSV, a header line first; bounded by `max_result_rows`. */
  async csv(sql: string): Promise<Buffer> {
    return this.run(sql, async (store) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of store.streamRaw(sql, undefined, 'CSVWithNames')) chunks.push(chunk);
      return Buffer.concat(chunks);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.stores?.statements.close();
    await this.stores?.syntax.close();
  }

  private async run<T>(sql: string, work: (store: ExplorerStore) => Promise<T>): Promise<T> {
    const stores = this.openStores();
    try {
      const refusal = refusalOf(parseSyntaxTree(await explainSyntaxTree(stores.syntax, sql)));
      if (refusal !== undefined) throw statementRefused(refusal);
      return await work(stores.statements);
    } catch (error) {
      throw operatorSqlError(error, this.config.operator_sql);
    }
  }

  private openStores(): OperatorSqlStores {
    if (this.stores === undefined) this.stores = this.openOperatorSqlStores(this.logger.child({ component: 'operator-sql' })) ?? null;
    if (this.stores === null) {
      throw new AppError('FEATURE_DISABLED', 'the explorer store is a ClickHouse server: query it directly as its read-only analyst user (docs/analysts.md)');
    }
    return this.stores;
  }
}
