/**
 * What the insights (aggregates for the dashboard's overview and charts)
 * offer: metrics, intervals and splits. Periods and filters are the Data
 * Explorer's own (the `events` explorer's for bot traffic, `search-pages`'
 * for search performance), resolved by the same rules.
 */
import type { BotCategory } from '@bpc/bots';

/** Metrics over recorded bot requests (`bot_requests`). */
export const BOT_METRICS = ['requests', 'pages', 'hit_rate', 'serve_time_p50', 'serve_time_p95'] as const;
/** Metrics over imported search performance (`search_page_daily`, whole UTC days). */
export const SEARCH_METRICS = ['clicks', 'impressions', 'ctr', 'position'] as const;
export const INSIGHT_METRICS = [...BOT_METRICS, ...SEARCH_METRICS] as const;
export type BotMetric = (typeof BOT_METRICS)[number];
export type SearchMetric = (typeof SEARCH_METRICS)[number];
export type InsightMetric = (typeof INSIGHT_METRICS)[number];

export const INTERVALS = ['hour', 'day'] as const;
export type Interval = (typeof INTERVALS)[number];

/** Splits of bot-request metrics: one series per value of the recorded column. */
export const SPLIT_BY = ['bot_family', 'cache_status', 'status_class', 'dimension', 'bot_category', 'bot_operator', 'verified', 'robots_allowed', 'format'] as const;
export type SplitBy = (typeof SPLIT_BY)[number];

/** The bot categories of AI agents: crawlers for AI search and training, and assistants fetching because a person asked. */
export const AI_BOT_CATEGORIES: readonly BotCategory[] = ['ai_search', 'ai_assistant', 'ai_training'];
/** Pages listed per AI category, most requested first. */
export const TOP_AI_PAGES_PER_CATEGORY = 5;

/** `period` when the body names none (a preset of every explorer). */
export const DEFAULT_INSIGHTS_PERIOD = '30d';
/** Windows up to this many days are charted by the hour unless `interval` says otherwise. */
export const HOURLY_BY_DEFAULT_MAX_DAYS = 7;
/** Hourly buckets over a longer window are refused (more than 744 points a series). */
export const HOURLY_MAX_DAYS = 31;

/** Counts are 0 in an empty bucket; ratios and latencies have no value there (null). */
export function isCountMetric(metric: InsightMetric): boolean {
  return metric === 'requests' || metric === 'pages' || metric === 'clicks' || metric === 'impressions';
}

export function isSearchMetric(metric: InsightMetric): metric is SearchMetric {
  return (SEARCH_METRICS as readonly string[]).includes(metric);
}
