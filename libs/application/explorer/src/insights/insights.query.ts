import type { InsightMetric, Interval, SplitBy } from './insights-catalog';
import type { InsightsSummaryBody, InsightsTimeseriesBody } from './resolve-insights';
import type { TimeseriesSeries } from './timeseries-series';

/** The overview's figures for a window against its comparison window. */
export class GetInsightsSummary {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    readonly body: InsightsSummaryBody,
    /** When the request arrived (ms on the app's clock): the explorer's time budget counts from here. */
    readonly receivedAtMs: number,
  ) {}
}

/** One metric over time, optionally split, optionally against a comparison window. */
export class GetInsightsTimeseries {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    readonly body: InsightsTimeseriesBody,
    readonly receivedAtMs: number,
  ) {}
}

export interface WindowView {
  readonly start: string;
  readonly end: string;
}

/** Figures of one window; ratios and latencies are null when it has no requests. */
export interface InsightsSummaryFigures {
  readonly requests: number;
  /** Distinct page URLs requested. */
  readonly pages: number;
  /** Share of requests served from a fresh snapshot (`cache_status` hit), 0..1. */
  readonly hitRate: number | null;
  readonly serveTimeP50Ms: number | null;
  readonly serveTimeP95Ms: number | null;
  readonly share4xx: number | null;
  readonly share5xx: number | null;
  readonly rendersFailed: number;
}

export interface InsightsSummaryResult {
  readonly data: { readonly current: InsightsSummaryFigures; readonly previous: InsightsSummaryFigures; readonly newPages: number; readonly lostPages: number };
  readonly meta: { readonly period: string; readonly window: WindowView; readonly compPeriod: string; readonly compWindow: WindowView };
}

export interface InsightsTimeseriesResult {
  readonly data: { readonly series: TimeseriesSeries[]; readonly comparison?: TimeseriesSeries[] };
  readonly meta: {
    readonly metric: InsightMetric;
    readonly interval: Interval;
    readonly splitBy?: SplitBy;
    readonly period: string;
    readonly window: WindowView;
    readonly compPeriod?: string;
    readonly compWindow?: WindowView;
  };
}
