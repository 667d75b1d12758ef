import type { InsightMetric, Interval, SplitBy } from './insights-catalog';
import type { InsightsBotCategoriesBody, InsightsSummaryBody, InsightsTimeseriesBody } from './resolve-insights';
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

/** Who read the website in a window: bot requests by category, AI agents together, and the pages each AI category read most. */
export class GetInsightsBotCategories {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    readonly body: InsightsBotCategoriesBody,
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

/** One bot category's share of a window's requests. */
export interface BotCategoryFigures {
  /** A bot category (`search`, `ai_assistant` …) as recorded. */
  readonly category: string;
  readonly requests: number;
  /** Of the window's bot requests, 0..1 (4 decimals). */
  readonly share: number;
  /** Distinct page URLs the category requested. */
  readonly pages: number;
}

/** A page an AI category requested, with how often. */
export interface AiPageFigures {
  readonly category: string;
  readonly url: string;
  readonly requests: number;
}

export interface InsightsBotCategoriesResult {
  readonly data: {
    /** Bot requests in the window (the events explorer's `requests` total). */
    readonly requests: number;
    /** Every category with requests in the window, most requests first. */
    readonly categories: BotCategoryFigures[];
    /** AI search, AI assistant and AI training together; `share` null without requests. */
    readonly aiAgents: { readonly requests: number; readonly share: number | null; readonly pages: number };
    /** Up to TOP_AI_PAGES_PER_CATEGORY pages per AI category, categories in AI_BOT_CATEGORIES order, most requested first. */
    readonly topAiPages: AiPageFigures[];
  };
  readonly meta: { readonly period: string; readonly window: WindowView };
}
