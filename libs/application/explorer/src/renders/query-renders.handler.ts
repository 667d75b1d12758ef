import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { AccountLimits } from '../account-limits';
import { resolveQuery } from '../resolve-query/resolve-query';
import { runResolvedQuery } from '../run-explorer-query/run-explorer-query.handler';
import type { ExplorerQueryResult } from '../run-explorer-query/run-explorer-query.query';
import { rendersCatalogOf } from './renders-catalog';
import { buildRendersSql } from './renders-sql';
import { QueryRenders } from './renders.query';

/**
 * A render-history page by the Data Explorer's rules: the website's catalog
 * (its host, its dimensions), the account's limits, the admission queue and
 * the time budget from the request's arrival.
 */
@QueryHandler(QueryRenders)
export class QueryRendersHandler implements IQueryHandler<QueryRenders, ExplorerQueryResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly limits: AccountLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, body, receivedAtMs }: QueryRenders): Promise<ExplorerQueryResult> {
    const explorer = rendersCatalogOf(this.config, websiteId);
    const query = { ...resolveQuery(explorer, body, this.clock.now(), this.limits.of(accountId)), explorer };
    const runner = { store: this.store, admission: this.admission, config: this.config };
    return runResolvedQuery(runner, query, buildRendersSql(query), { accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms });
  }
}
