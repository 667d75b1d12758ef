import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import type { TimeWindow } from '../periods/periods';
import { runAdmittedStatement } from '../run-explorer-query/run-admitted-statement';
import { isCountMetric, isSearchMetric } from './insights-catalog';
import { GetInsightsTimeseries, InsightsTimeseriesResult } from './insights.query';
import { botTimeseriesSql, InsightsStatement, searchTimeseriesSql } from './insights-sql';
import { ResolvedTimeseries, resolveInsightsTimeseries } from './resolve-insights';
import { BucketRow, bucketStarts, fillSeries, seriesKeys } from './timeseries-series';
import { windowView } from './window-view';

/**
 * A metric per bucket over the main window (and the comparison window when
 * `compPeriod` was sent, side by side), every bucket present. Statements go
 * through the explorer's admission queue and time budget.
 */
@QueryHandler(GetInsightsTimeseries)
export class GetInsightsTimeseriesHandler implements IQueryHandler<GetInsightsTimeseries, InsightsTimeseriesResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, body, receivedAtMs }: GetInsightsTimeseries): Promise<InsightsTimeseriesResult> {
    const query = resolveInsightsTimeseries(body, this.clock.now());
    const runner = { store: this.store, admission: this.admission, config: this.config };
    const statement = { filters: query.filters, accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms };
    const run = (window: TimeWindow | undefined): Promise<BucketRow[]> => {
      if (!window) return Promise.resolve([]);
      const sql = statementFor(query, websiteId, window);
      return runAdmittedStatement<BucketRow>(runner, statement, sql.sql, sql.params);
    };
    const [main, comparison] = await Promise.all([run(query.main.window), run(query.comparison?.window)]);
    const keys = query.splitBy === undefined ? ['all'] : seriesKeys(main, comparison);
    const empty = isCountMetric(query.metric) ? 0 : null;
    return {
      data: {
        series: fillSeries(main, keys, bucketStarts(query.main.window, query.interval), empty),
        ...(query.comparison ? { comparison: fillSeries(comparison, keys, bucketStarts(query.comparison.window, query.interval), empty) } : {}),
      },
      meta: {
        metric: query.metric,
        interval: query.interval,
        ...(query.splitBy ? { splitBy: query.splitBy } : {}),
        period: query.main.period,
        window: windowView(query.main.window),
        ...(query.comparison ? { compPeriod: query.comparison.period, compWindow: windowView(query.comparison.window) } : {}),
      },
    };
  }
}

function statementFor(query: ResolvedTimeseries, websiteId: string, window: TimeWindow): InsightsStatement {
  const { metric } = query;
  return isSearchMetric(metric) ? searchTimeseriesSql(websiteId, metric, window, query.filters) : botTimeseriesSql(websiteId, metric, query.interval, query.splitBy, window, query.filters);
}
