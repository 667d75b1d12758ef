import { CHANGE_FIELDS, ISSUE_SEVERITIES, MAX_CHANGE_TEXT, type PageChange, type PageFacts } from '@bpc/domain';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { pageUrlSchema } from '../page-url-schema';
import { pageFactsSchema } from './page-facts-schema';

export const RENDER_RECORDED = 'RenderRecorded';

/** What asked for the render: a queue entry's priority (a sitemap recache is queued at `normal`), or a bot's miss at the edge. */
export const RENDER_TRIGGERS = ['recache_high', 'recache_normal', 'autorecache', 'sitemap', 'edge_miss'] as const;
export type RenderTrigger = (typeof RENDER_TRIGGERS)[number];

/**
 * How one render or origin fetch ended:
 * - `stored`: the result replaced the cache entry;
 * - `kept_*`: the old entry stayed, and which rule kept it: the result was
 *   blank, timed out, a soft 404, much smaller than the last good render,
 *   or a fresh render is kept over a bypass fetch (`kept_fresher`, render-wins);
 * - `retry_scheduled` / `gave_up`: a queued attempt failed and will be tried
 *   again / will not (no good entry was there to keep);
 * - `failed`: an edge miss that produced nothing storable and had no entry to keep.
 */
export const RENDER_OUTCOMES = ['stored', 'kept_blank', 'kept_timeout', 'kept_soft_404', 'kept_smaller', 'kept_fresher', 'retry_scheduled', 'gave_up', 'failed'] as const;
export type RenderOutcome = (typeof RENDER_OUTCOMES)[number];

export interface RenderRecordedPayload {
  readonly hostId: number;
  readonly url: string;
  readonly dimensionId: number;
  /** `render`: headless browser; `bypass`: origin fetch. */
  readonly mode: 'render' | 'bypass';
  readonly trigger: RenderTrigger;
  readonly outcome: RenderOutcome;
  /** Why, in words (empty for `stored`): the failure, or the rule that kept the old entry. */
  readonly reason: string;
  /** Status of the produced page; 0 when none was produced. */
  readonly statusCode: number;
  readonly renderMs: number;
  /** Size of the produced body; 0 when none. */
  readonly bytes: number;
  /** 1-based attempt of the queue entry (1 for an edge miss). */
  readonly attempt: number;
  /** The queue entry's id (the request that last queued it); absent for an edge miss. */
  readonly entryId?: string;
  /** What the produced page says to bots; absent when no page was produced (and in events recorded before facts were). */
  readonly facts?: PageFacts;
  /**
   * What changed for bots since the page this render replaced (that entry's
   * facts), most severe first: only on a `stored` render whose previous entry
   * had facts and differs. Absent otherwise (and in events recorded before).
   */
  readonly changes?: readonly PageChange[];
}

/** One render or origin fetch and how it ended. Keyed by host id, like the queue topic. */
export type RenderRecorded = EventEnvelope<typeof RENDER_RECORDED, RenderRecordedPayload>;

export const renderRecordedSchema = payloadSchema<RenderRecordedPayload>()({
  type: 'object',
  required: ['hostId', 'url', 'dimensionId', 'mode', 'trigger', 'outcome', 'reason', 'statusCode', 'renderMs', 'bytes', 'attempt'],
  additionalProperties: false,
  properties: {
    hostId: { type: 'integer', minimum: 1 },
    url: pageUrlSchema,
    dimensionId: { type: 'integer', minimum: 1 },
    mode: { enum: ['render', 'bypass'] },
    trigger: { enum: [...RENDER_TRIGGERS] },
    outcome: { enum: [...RENDER_OUTCOMES] },
    reason: { type: 'string' },
    statusCode: { type: 'integer', minimum: 0, maximum: 999 },
    renderMs: { type: 'integer', minimum: 0 },
    bytes: { type: 'integer', minimum: 0 },
    attempt: { type: 'integer', minimum: 1 },
    entryId: { type: 'string' },
    facts: pageFactsSchema,
    changes: {
      type: 'array',
      maxItems: CHANGE_FIELDS.length,
      description: 'what changed for bots since the page this stored render replaced (docs/seo-health.md), most severe first; one entry per field',
      items: {
        type: 'object',
        required: ['field', 'before', 'after', 'severity'],
        additionalProperties: false,
        properties: {
          field: { enum: [...CHANGE_FIELDS] },
          before: { type: 'string', maxLength: MAX_CHANGE_TEXT, description: 'the value as the customer reads it; empty when there was none' },
          after: { type: 'string', maxLength: MAX_CHANGE_TEXT },
          severity: { enum: [...ISSUE_SEVERITIES] },
        },
      },
    },
  },
});
