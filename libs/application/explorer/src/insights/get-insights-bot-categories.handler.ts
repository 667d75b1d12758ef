import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { runAdmittedStatement } from '../run-explorer-query/run-admitted-statement';
import { botCategoryFigures } from './bot-category-figures';
import { GetInsightsBotCategories, InsightsBotCategoriesResult } from './insights.query';
import { AiAgentsRow, AiPageRow, botCategoriesSql, BotCategoryRow } from './insights-sql';
import { resolveInsightsBotCategories } from './resolve-insights';
import { windowView } from './window-view';

/**
 * Who read the website: validated by the explorer's rules, then three
 * statements side by side through the explorer's admission queue and time
 * budget (503 EXPLORER_BUSY, 504 QUERY_TIMEOUT as the explorer answers).
 */
@QueryHandler(GetInsightsBotCategories)
export class GetInsightsBotCategoriesHandler implements IQueryHandler<GetInsightsBotCategories, InsightsBotCategoriesResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, body, receivedAtMs }: GetInsightsBotCategories): Promise<InsightsBotCategoriesResult> {
    const { filters, main } = resolveInsightsBotCategories(body, this.clock.now());
    const sql = botCategoriesSql(websiteId, main.window, filters);
    const runner = { store: this.store, admission: this.admission, config: this.config };
    const statement = { filters, accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms };
    const [categories, [aiAgents], topAiPages] = await Promise.all([
      runAdmittedStatement<BotCategoryRow>(runner, statement, sql.categories.sql, sql.categories.params),
      runAdmittedStatement<AiAgentsRow>(runner, statement, sql.aiAgents.sql, sql.aiAgents.params),
      runAdmittedStatement<AiPageRow>(runner, statement, sql.topAiPages.sql, sql.topAiPages.params),
    ]);
    return { data: botCategoryFigures(categories, aiAgents, topAiPages), meta: { period: main.period, window: windowView(main.window) } };
  }
}
