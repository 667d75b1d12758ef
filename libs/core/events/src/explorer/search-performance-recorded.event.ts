import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';

export const SEARCH_PERFORMANCE_RECORDED = 'SearchPerformanceRecorded';

export const SEARCH_GRAINS = ['page', 'query'] as const;
export type SearchGrain = (typeof SEARCH_GRAINS)[number];

export interface SearchPerformanceRow {
  /** The page URL (grain `page`) or the search query (grain `query`). */
  readonly key: string;
  readonly clicks: number;
  readonly impressions: number;
  /** Average position that day, 1 = top. */
  readonly position: number;
}

/**
 * One whole day of search performance for a website at one grain, as the
 * search engine reported it. A later event for the same website, day and grain
 * supersedes the earlier one (re-imports replace a day).
 */
export interface SearchPerformanceRecordedPayload {
  readonly websiteId: string;
  /** `YYYY-MM-DD` (UTC day). */
  readonly date: string;
  readonly grain: SearchGrain;
  readonly rows: readonly SearchPerformanceRow[];
  /** Where the figures came from. */
  readonly source: 'demo-data' | 'search-console-csv' | 'search-console-api';
}

export type SearchPerformanceRecorded = EventEnvelope<typeof SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecordedPayload>;

export const searchPerformanceRecordedSchema = payloadSchema<SearchPerformanceRecordedPayload>()({
  type: 'object',
  additionalProperties: false,
  required: ['websiteId', 'date', 'grain', 'rows', 'source'],
  properties: {
    websiteId: { type: 'string' },
    date: { type: 'string', format: 'date' },
    grain: { enum: [...SEARCH_GRAINS] },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'clicks', 'impressions', 'position'],
        properties: {
          key: { type: 'string' },
          clicks: { type: 'integer', minimum: 0 },
          impressions: { type: 'integer', minimum: 0 },
          position: { type: 'number', minimum: 0 },
        },
      },
    },
    source: { enum: ['demo-data', 'search-console-csv', 'search-console-api'] },
  },
});
