import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { bucketStarts } from '../insights/timeseries-series';
import { windowView } from '../insights/window-view';
import { runAdmittedStatement } from '../run-explorer-query/run-admitted-statement';
import { rendersCatalogOf } from './renders-catalog';
import { RenderBucketRow, rendersTimeseriesSql } from './renders-sql';
import { GetRendersTimeseries, RendersTimeseriesResult } from './renders.query';
import { resolveRendersTimeseries } from './resolve-renders-timeseries';

/** Renders per bucket by outcome class, every bucket of the window present (counts 0, percentiles null when empty); one admitted statement. */
@QueryHandler(GetRendersTimeseries)
export class GetRendersTimeseriesHandler implements IQueryHandler<GetRendersTimeseries, RendersTimeseriesResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, body, receivedAtMs }: GetRendersTimeseries): Promise<RendersTimeseriesResult> {
    const explorer = rendersCatalogOf(this.config, websiteId);
    const query = resolveRendersTimeseries(explorer, body, this.clock.now());
    const { sql, params } = rendersTimeseriesSql(explorer, query.window, query.interval, query.filters);
    const runner = { store: this.store, admission: this.admission, config: this.config };
    const rows = await runAdmittedStatement<RenderBucketRow>(runner, { filters: query.filters, accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms }, sql, params);
    const byStart = new Map(rows.map((r) => [Number(r.t), r]));
    return {
      meta: { period: query.period, window: windowView(query.window), interval: query.interval },
      points: bucketStarts(query.window, query.interval).map((t) => {
        const row = byStart.get(t);
        return {
          t: new Date(t).toISOString(),
          renders: Number(row?.renders ?? 0),
          stored: Number(row?.stored ?? 0),
          kept: Number(row?.kept ?? 0),
          failed: Number(row?.failed ?? 0),
          renderMsP50: row ? Number(row.p50) : null,
          renderMsP95: row ? Number(row.p95) : null,
        };
      }),
    };
  }
}
