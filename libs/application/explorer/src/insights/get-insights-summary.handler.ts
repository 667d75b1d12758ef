import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { runAdmittedStatement } from '../run-explorer-query/run-admitted-statement';
import { GetInsightsSummary, InsightsSummaryResult } from './insights.query';
import { summarySql, SummaryFiguresRow, SummaryPagesRow } from './insights-sql';
import { resolveInsightsSummary } from './resolve-insights';
import { NO_PAGES, summaryFigures } from './summary-figures';
import { windowView } from './window-view';

/**
 * The overview's figures: validated by the explorer's rules, then two
 * statements side by side through the explorer's admission queue and time
 * budget (503 EXPLORER_BUSY, 504 QUERY_TIMEOUT as the explorer answers).
 */
@QueryHandler(GetInsightsSummary)
export class GetInsightsSummaryHandler implements IQueryHandler<GetInsightsSummary, InsightsSummaryResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, body, receivedAtMs }: GetInsightsSummary): Promise<InsightsSummaryResult> {
    const { filters, main, comparison } = resolveInsightsSummary(body, this.clock.now());
    const sql = summarySql(websiteId, main.window, comparison.window, filters);
    const runner = { store: this.store, admission: this.admission, config: this.config };
    const statement = { filters, accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms };
    const [[figures = {}], [pages = NO_PAGES]] = await Promise.all([
      runAdmittedStatement<SummaryFiguresRow>(runner, statement, sql.figures.sql, sql.figures.params),
      runAdmittedStatement<SummaryPagesRow>(runner, statement, sql.pages.sql, sql.pages.params),
    ]);
    return {
      data: {
        current: summaryFigures(figures, Number(pages.pages), ''),
        previous: summaryFigures(figures, Number(pages.comp_pages), 'comp_'),
        newPages: Number(pages.new_pages),
        lostPages: Number(pages.lost_pages),
      },
      meta: { period: main.period, window: windowView(main.window), compPeriod: comparison.period, compWindow: windowView(comparison.window) },
    };
  }
}
