import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppError, Clock } from '@bpc/domain';
import type { AppConfig } from '@bpc/config';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore, QueryParams } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { AccountLimits } from '../account-limits';
import { findExplorer } from '../catalog/explorer-catalog';
import { assertPageInRange, ResolvedQuery, resolveQuery } from '../resolve-query/resolve-query';
import { buildExplorerSql, ExplorerSql } from '../sql/explorer-sql';
import { runAdmittedStatement } from './run-admitted-statement';
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
    const explorer = findExplorer(explorerKey);
    if (!explorer) throw new AppError('NOT_FOUND', `unknown explorer ${explorerKey}`);
    const query = resolveQuery(explorer, body, this.clock.now(), this.limits.of(accountId));
    const sql = buildExplorerSql(query, websiteId);
    const statement = { query, accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms };
    // Count and page run side by side; a page past the last is refused once the count is known.
    const [counted, raw] = await Promise.all([this.run<{ total: number }>(statement, sql.countSql, sql.params), this.run(statement, sql.pageSql, sql.params)]);
    const total = Number(counted[0]?.total ?? 0);
    const totalPages = assertPageInRange(query, total);
    const extras = await this.pageCompanions(statement, sql, raw);
    return { data: raw.map((r) => shapeRow(query, r, extras.get(String(r._rowId)))), meta: queryMeta(query, total, totalPages) };
  }

  private async pageCompanions(statement: Statement, sql: ExplorerSql, raw: Record<string, unknown>[]): Promise<Map<string, Record<string, unknown>>> {
    const out = new Map<string, Record<string, unknown>>();
    if (!sql.companionSql || raw.length === 0) return out;
    const params = { ...sql.params, urls: raw.map((r) => String(r._rowId)) };
    const rows = await this.run<{ url: string; _title: string; _status_code: number }>(statement, sql.companionSql, params);
    for (const r of rows) out.set(r.url, { _title: r._title, _status_code: r._status_code });
    return out;
  }

  /** One statement through the admission queue, with the errors every explorer statement answers (runAdmittedStatement). */
  private run<T = Record<string, unknown>>({ query, accountId, deadlineMs }: Statement, sql: string, params: QueryParams): Promise<T[]> {
    return runAdmittedStatement<T>({ store: this.store, admission: this.admission, config: this.config }, { filters: query.filters, accountId, deadlineMs }, sql, params);
  }
}

/** What every statement of one query shares: its filters (to name a bad pattern), its account and its deadline. */
interface Statement {
  readonly query: ResolvedQuery;
  readonly accountId: string;
  readonly deadlineMs: number;
}
