import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppError, Clock, validationError } from '@bpc/domain';
import type { AppConfig } from '@bpc/config';
import { EXPLORER_STORE, ExplorerStore, ExplorerStoreError, settingsClause } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { AccountLimits } from '../account-limits';
import { findExplorer } from '../catalog/explorer-catalog';
import { assertPageInRange, ResolvedQuery, resolveQuery } from '../resolve-query/resolve-query';
import { buildExplorerSql, ExplorerSql } from '../sql/explorer-sql';
import { ExplorerQueryResult, RunExplorerQuery } from './run-explorer-query.query';
import { queryMeta, shapeRow } from './shape-rows';

/**
 * Validates against the catalog, counts, checks the page, then reads the
 * page straight from ClickHouse. Each statement runs at most
 * `explorer.query_timeout_ms` (the engine stops it: 504 QUERY_TIMEOUT).
 */
@QueryHandler(RunExplorerQuery)
export class RunExplorerQueryHandler implements IQueryHandler<RunExplorerQuery, ExplorerQueryResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly limits: AccountLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, explorerKey, body }: RunExplorerQuery): Promise<ExplorerQueryResult> {
    const explorer = findExplorer(explorerKey);
    if (!explorer) throw new AppError('NOT_FOUND', `unknown explorer ${explorerKey}`);
    const query = resolveQuery(explorer, body, this.clock.now(), this.limits.of(accountId));
    const sql = buildExplorerSql(query, websiteId);
    // Count and page run side by side; a page past the last is refused once the count is known.
    const [counted, raw] = await Promise.all([
      this.run(query, () => this.store.query<{ total: number }>(this.bounded(sql.countSql), sql.params)),
      this.run(query, () => this.store.query(this.bounded(sql.pageSql), sql.params)),
    ]);
    const total = Number(counted[0]?.total ?? 0);
    const totalPages = assertPageInRange(query, total);
    const extras = await this.pageCompanions(query, sql, raw);
    return { data: raw.map((r) => shapeRow(query, r, extras.get(String(r._rowId)))), meta: queryMeta(query, total, totalPages) };
  }

  private async pageCompanions(query: ResolvedQuery, sql: ExplorerSql, raw: Record<string, unknown>[]): Promise<Map<string, Record<string, unknown>>> {
    const out = new Map<string, Record<string, unknown>>();
    if (!sql.companionSql || raw.length === 0) return out;
    const params = { ...sql.params, urls: raw.map((r) => String(r._rowId)) };
    const rows = await this.run(query, () => this.store.query<{ url: string; _title: string; _status_code: number }>(this.bounded(sql.companionSql!), params));
    for (const r of rows) out.set(r.url, { _title: r._title, _status_code: r._status_code });
    return out;
  }

  /** `sql` stopped by the engine past the configured time (in its own SETTINGS clause, so it never leaks into a pooled connection). */
  private bounded(sql: string): string {
    return `${sql} SETTINGS ${settingsClause({ max_execution_time: this.config.explorer.query_timeout_ms / 1000 })}`;
  }

  /** Store failures become STORE_UNAVAILABLE, a query stopped for its time QUERY_TIMEOUT; a pattern RE2 still refuses becomes a 400 on its filter. */
  private async run<T>(query: ResolvedQuery, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const message = (error as Error).message ?? '';
      const regexAt = query.filters.findIndex((f) => f.op === 'regex' || f.op === 'not_regex');
      if (regexAt >= 0 && /re2|regexp|regular expression/i.test(message)) throw validationError(`filters[${regexAt}].val`, 'invalid regular expression (RE2 syntax)');
      if (error instanceof ExplorerStoreError && error.clickhouseType === 'TIMEOUT_EXCEEDED') {
        throw new AppError('QUERY_TIMEOUT', `the query ran longer than ${this.config.explorer.query_timeout_ms} ms (explorer.query_timeout_ms): choose a shorter period or add filters`);
      }
      if (error instanceof ExplorerStoreError) throw new AppError('STORE_UNAVAILABLE', 'explorer store unavailable');
      throw error;
    }
  }
}
