import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppError, Clock, validationError } from '@bpc/domain';
import type { AppConfig } from '@bpc/config';
import { admittedSettings, AdmissionRefusedError, EXPLORER_STORE, ExplorerAdmission, ExplorerStore, ExplorerStoreError, QueryParams, settingsClause } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { AccountLimits } from '../account-limits';
import { explorerBusyError } from '../admission/explorer-busy-error';
import { findExplorer } from '../catalog/explorer-catalog';
import { assertPageInRange, ResolvedQuery, resolveQuery } from '../resolve-query/resolve-query';
import { buildExplorerSql, ExplorerSql } from '../sql/explorer-sql';
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

  /**
   * One statement once admitted, stopped by the engine when the budget left
   * runs out, at low priority when its account has several in the engine (in
   * its own SETTINGS clause, so nothing leaks into a pooled connection).
   * Refusals become EXPLORER_BUSY, store failures STORE_UNAVAILABLE, a
   * statement stopped for its time QUERY_TIMEOUT; a pattern the engine's RE2
   * still refuses (JavaScript-only escapes such as `\u00e9` pass the `re2`
   * package) becomes a 400 on its filter.
   */
  private async run<T = Record<string, unknown>>({ query, accountId, deadlineMs }: Statement, sql: string, params: QueryParams): Promise<T[]> {
    const timeout = this.config.explorer.query_timeout_ms;
    try {
      return await this.admission.run(accountId, deadlineMs, (admitted) =>
        this.store.query<T>(`${sql} SETTINGS ${settingsClause(admittedSettings(admitted, this.config.adapters.explorer_store))}`, params),
      );
    } catch (error) {
      if (error instanceof AdmissionRefusedError) throw explorerBusyError(error, this.config, `${timeout} ms (explorer.query_timeout_ms)`);
      if (!(error instanceof ExplorerStoreError)) throw error;
      const regexAt = query.filters.findIndex((f) => f.op === 'regex' || f.op === 'not_regex');
      if (regexAt >= 0 && error.clickhouseType === 'CANNOT_COMPILE_REGEXP') throw validationError(`filters[${regexAt}].val`, `invalid regular expression (RE2 syntax): ${error.message}`);
      if (error.clickhouseType === 'TIMEOUT_EXCEEDED') {
        throw new AppError('QUERY_TIMEOUT', `the query took longer than ${timeout} ms from its arrival, waiting for the engine included (explorer.query_timeout_ms): choose a shorter period or add filters`);
      }
      throw new AppError('STORE_UNAVAILABLE', 'explorer store unavailable');
    }
  }
}

/** What every statement of one query shares: its filters (to name a bad pattern), its account and its deadline. */
interface Statement {
  readonly query: ResolvedQuery;
  readonly accountId: string;
  readonly deadlineMs: number;
}
