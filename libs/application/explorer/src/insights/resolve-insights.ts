import { validationError } from '@bpc/domain';
import { DEFAULT_LIMITS, ExplorerDef, findExplorer } from '../catalog/explorer-catalog';
import { resolvePeriod, TimeWindow } from '../periods/periods';
import type { QueryFilterInput } from '../resolve-query/query-body';
import { ResolvedFilter, resolveQuery } from '../resolve-query/resolve-query';
import {
  DEFAULT_INSIGHTS_PERIOD,
  HOURLY_BY_DEFAULT_MAX_DAYS,
  HOURLY_MAX_DAYS,
  INSIGHT_METRICS,
  InsightMetric,
  Interval,
  INTERVALS,
  isSearchMetric,
  SPLIT_BY,
  SplitBy,
} from './insights-catalog';

const DAY_MS = 86_400_000;

/** A summary body after type checks (the DTO). */
export interface InsightsSummaryBody {
  readonly period?: string;
  readonly compPeriod?: string;
  readonly filters?: readonly QueryFilterInput[];
}

/** A bot-categories body after type checks (the DTO): one window, no comparison. */
export interface InsightsBotCategoriesBody {
  readonly period?: string;
  readonly filters?: readonly QueryFilterInput[];
}

/** A timeseries body after type checks (the DTO). */
export interface InsightsTimeseriesBody extends InsightsSummaryBody {
  readonly metric?: string;
  readonly interval?: string;
  readonly splitBy?: string;
}

export interface ResolvedWindow {
  /** As it ran: the parts trimmed. */
  readonly period: string;
  readonly window: TimeWindow;
}

export interface ResolvedSummary {
  readonly filters: readonly ResolvedFilter[];
  readonly main: ResolvedWindow;
  /** Always present: `compPeriod`, or else the equal-length window just before. */
  readonly comparison: ResolvedWindow;
}

export interface ResolvedTimeseries {
  readonly metric: InsightMetric;
  readonly interval: Interval;
  readonly splitBy?: SplitBy;
  readonly filters: readonly ResolvedFilter[];
  readonly main: ResolvedWindow;
  /** Only when `compPeriod` was sent. */
  readonly comparison?: ResolvedWindow;
}

function explorer(key: 'events' | 'search-pages'): ExplorerDef {
  return findExplorer(key)!;
}

/**
 * Period, comparison period and filters of bot-request insights, by the
 * `events` explorer's own rules (its `comparison` mode: the one with both
 * windows), so they accept and refuse exactly what the explorer does and
 * name the same fields (`period`, `compPeriod`, `filters[0].op` …).
 */
function resolveBotWindows(body: InsightsSummaryBody, nowMs: number): ResolvedSummary & { readonly compAsked: boolean } {
  const query = resolveQuery(explorer('events'), { mode: 'comparison', period: body.period ?? DEFAULT_INSIGHTS_PERIOD, compPeriod: body.compPeriod, filters: body.filters }, nowMs, DEFAULT_LIMITS);
  const comparison = query.comparison!;
  return { filters: query.filters, main: { period: query.period, window: query.window }, comparison: { period: comparison.period, window: comparison.window }, compAsked: comparison.asked };
}

/**
 * Period and filters of search-performance insights, by the `search-pages`
 * explorer's rules: whole UTC days (a sub-day preset such as `24h` is
 * refused), its `url` filter. That explorer has no comparison window; a
 * `compPeriod` is read as the events explorer reads one (whole days).
 */
function resolveSearchWindows(body: InsightsSummaryBody, nowMs: number): { filters: readonly ResolvedFilter[]; main: ResolvedWindow; comparison?: ResolvedWindow } {
  const search = explorer('search-pages');
  const query = resolveQuery(search, { period: body.period ?? DEFAULT_INSIGHTS_PERIOD, filters: body.filters }, nowMs, DEFAULT_LIMITS);
  const comparison = body.compPeriod === undefined ? undefined : { period: body.compPeriod, window: resolvePeriod(body.compPeriod, search.periods, nowMs, 'compPeriod', true) };
  return { filters: query.filters, main: { period: query.period, window: query.window }, comparison };
}

export function resolveInsightsSummary(body: InsightsSummaryBody, nowMs: number): ResolvedSummary {
  const { filters, main, comparison } = resolveBotWindows(body, nowMs);
  return { filters, main, comparison };
}

/**
 * Period and filters of the bot categories, by the `events` explorer's
 * `unique_pages` mode (one window): they accept and refuse what the explorer
 * does, naming the same fields.
 */
export function resolveInsightsBotCategories(body: InsightsBotCategoriesBody, nowMs: number): { readonly filters: readonly ResolvedFilter[]; readonly main: ResolvedWindow } {
  const query = resolveQuery(explorer('events'), { mode: 'unique_pages', period: body.period ?? DEFAULT_INSIGHTS_PERIOD, filters: body.filters }, nowMs, DEFAULT_LIMITS);
  return { filters: query.filters, main: { period: query.period, window: query.window } };
}

/** Checks a timeseries body and resolves its defaults; refuses (VALIDATION_FAILED naming the field) what it cannot honour. */
export function resolveInsightsTimeseries(body: InsightsTimeseriesBody, nowMs: number): ResolvedTimeseries {
  if (body.metric === undefined) throw validationError('metric', `metric is required: one of ${INSIGHT_METRICS.join(', ')}`);
  if (!(INSIGHT_METRICS as readonly string[]).includes(body.metric)) throw validationError('metric', `metric must be one of ${INSIGHT_METRICS.join(', ')}`);
  const metric = body.metric as InsightMetric;
  if (body.interval !== undefined && !(INTERVALS as readonly string[]).includes(body.interval)) throw validationError('interval', `interval must be one of ${INTERVALS.join(', ')}`);
  if (body.splitBy !== undefined && !(SPLIT_BY as readonly string[]).includes(body.splitBy)) throw validationError('splitBy', `splitBy must be one of ${SPLIT_BY.join(', ')}`);

  if (isSearchMetric(metric)) {
    if (body.splitBy !== undefined) throw validationError('splitBy', `${metric} is a search performance metric: it has no splitBy`);
    if (body.interval === 'hour') throw validationError('interval', `${metric} is a search performance metric, recorded per whole day: interval must be day`);
    const { filters, main, comparison } = resolveSearchWindows(body, nowMs);
    return { metric, interval: 'day', filters, main, comparison };
  }
  const { filters, main, comparison, compAsked } = resolveBotWindows(body, nowMs);
  const interval = (body.interval as Interval | undefined) ?? (lengthDays(main.window) <= HOURLY_BY_DEFAULT_MAX_DAYS ? 'hour' : 'day');
  const charted = compAsked ? [main, comparison] : [main];
  if (interval === 'hour' && charted.some((w) => lengthDays(w.window) > HOURLY_MAX_DAYS)) {
    throw validationError('interval', `hourly buckets cover at most ${HOURLY_MAX_DAYS} days: choose interval day or a shorter period${compAsked ? ' and compPeriod' : ''}`);
  }
  return { metric, interval, splitBy: body.splitBy as SplitBy | undefined, filters, main, comparison: compAsked ? comparison : undefined };
}

function lengthDays(window: TimeWindow): number {
  return (window.end.getTime() - window.start.getTime()) / DAY_MS;
}
