import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppError, Clock } from '@bpc/domain';
import type { AppConfig } from '@bpc/config';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore, QueryParams } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { AccountLimits } from '../account-limits';
import { siteExplorerOf } from '../pages/site-explorer';
import { assertPageInRange, ResolvedQuery, resolveQuery } from '../resolve-query/resolve-query';
import type { ExplorerSql } from '../sql/explorer-sql';
import { buildQuerySql } from '../sql/query-sql';
import { runAdmittedStatement, StatementRunner } from './run-admitted-statement';
import { ExplorerQueryResult, RunExplorerQuery } from './run-explorer-query.query';
import { queryMeta, shapeRow } from './shape-rows';

/**
 * Validates against the catalog, counts, checks the page, then reads the
 * page straight from ClickHouse. The query's budget (`explorer.query_timeout_ms`)
 * counts from its arrival: each statement waits its turn in the admission
 * queue (refused past the budget: 503 EXPLORER_BUSY with Retry-After), then
 * runs with what is left (the engine stops it: 504 QUERY_TIMEOUT).
 */
@QueryHandler(RunExplorerQuery)
export class RunExplorerQueryHandler implements IQueryHandler<RunExplorerQuery, ExplorerQueryResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly limits: AccountLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, explorerKey, body, receivedAtMs }: RunExplorerQuery): Promise<ExplorerQueryResult> {
    const explorer = siteExplorerOf(this.config, websiteId, explorerKey);
    if (!explorer) throw new AppError('NOT_FOUND', `unknown explorer ${explorerKey}`);
    const query = resolveQuery(explorer, body, this.clock.now(), this.limits.of(accountId));
    const runner = { store: this.store, admission: this.admission, config: this.config };
    return runResolvedQuery(runner, query, buildQuerySql(query, websiteId), { accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms });
  }
}

/**
 * Counts and reads one page of a resolved query (count and page side by
 * side), checks the page against the total, adds the page's companions, and
 * shapes rows and meta. Shared by the Data Explorer and render history.
 */
export async function runResolvedQuery(runner: StatementRunner, query: ResolvedQuery, sql: ExplorerSql, { accountId, deadlineMs }: { accountId: string; deadlineMs: number }): Promise<ExplorerQueryResult> {
  const run = <T = Record<string, unknown>>(statement: string, params: QueryParams) => runAdmittedStatement<T>(runner, { filters: query.filters, accountId, deadlineMs }, statement, params);
  const [counted, raw] = await Promise.all([run<{ total: number }>(sql.countSql, sql.params), run(sql.pageSql, sql.params)]);
  const total = Number(counted[0]?.total ?? 0);
  const totalPages = assertPageInRange(query, total);
  const extras = new Map<string, Record<string, unknown>>();
  // Search rows carry no title or status: they come from the latest bot request of each URL of the page.
  if (sql.companionSql && raw.length > 0) {
    const rows = await run<{ url: string; _title: string; _status_code: number }>(sql.companionSql, { ...sql.params, urls: raw.map((r) => String(r._rowId)) });
    for (const r of rows) extras.set(r.url, { _title: r._title, _status_code: r._status_code });
  }
  return { data: raw.map((r) => shapeRow(query, r, extras.get(String(r._rowId)))), meta: queryMeta(query, total, totalPages) };
}
