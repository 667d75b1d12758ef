import { validationError } from '@bpc/domain';
import { DEFAULT_LIMITS } from '../catalog/explorer-catalog';
import { HOURLY_BY_DEFAULT_MAX_DAYS, HOURLY_MAX_DAYS, Interval, INTERVALS } from '../insights/insights-catalog';
import type { TimeWindow } from '../periods/periods';
import { ResolvedFilter, resolveQuery } from '../resolve-query/resolve-query';
import type { RendersDef } from './renders-catalog';
import type { RendersTimeseriesBody } from './renders.query';

const DAY_MS = 86_400_000;

export interface ResolvedRendersTimeseries {
  readonly period: string;
  readonly window: TimeWindow;
  readonly interval: Interval;
  readonly filters: readonly ResolvedFilter[];
}

/**
 * Period and filters by the `renders` mode's own rules (so they accept and
 * refuse what a render-history query does, naming the same fields), and the
 * interval as the insights choose it: hourly up to 7 days unless asked,
 * hourly over more than 31 days refused.
 */
export function resolveRendersTimeseries(explorer: RendersDef, body: RendersTimeseriesBody, nowMs: number): ResolvedRendersTimeseries {
  if (body.interval !== undefined && !(INTERVALS as readonly string[]).includes(body.interval)) throw validationError('interval', `interval must be one of ${INTERVALS.join(', ')}`);
  const query = resolveQuery(explorer, { mode: 'renders', period: body.period, filters: body.filters }, nowMs, DEFAULT_LIMITS);
  const days = (query.window.end.getTime() - query.window.start.getTime()) / DAY_MS;
  const interval = (body.interval as Interval | undefined) ?? (days <= HOURLY_BY_DEFAULT_MAX_DAYS ? 'hour' : 'day');
  if (interval === 'hour' && days > HOURLY_MAX_DAYS) throw validationError('interval', `hourly buckets cover at most ${HOURLY_MAX_DAYS} days: choose interval day or a shorter period`);
  return { period: query.period, window: query.window, interval, filters: query.filters };
}
