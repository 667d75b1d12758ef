import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { pageUrlSchema } from '../page-url-schema';

export const BOT_REQUEST_RECORDED = 'BotRequestRecorded';

export const CACHE_STATUSES = ['hit', 'miss', 'stale', 'bypass'] as const;
export type CacheStatus = (typeof CACHE_STATUSES)[number];

/** One bot request served by the edge: one row of the `events` explorer. */
export interface BotRequestRecordedPayload {
  readonly websiteId: string;
  readonly host: string;
  readonly url: string;
  /** Title of the served page, empty when unknown. */
  readonly pageTitle: string;
  readonly statusCode: number;
  readonly botName: string;
  readonly userAgent: string;
  readonly dimensionId: number;
  readonly dimensionName: string;
  readonly cacheStatus: CacheStatus;
  readonly serveTimeMs: number;
  /** Age of the served snapshot in seconds; null when none was served (a miss rendered now, a bypass). */
  readonly snapshotAgeS: number | null;
  readonly bytes: number;
  /** When the request was served, ISO 8601 UTC with milliseconds. */
  readonly servedAt: string;
  /** Edge request id: the `_rowId` of the events explorer. */
  readonly requestId: string;
}

export type BotRequestRecorded = EventEnvelope<typeof BOT_REQUEST_RECORDED, BotRequestRecordedPayload>;

export const botRequestRecordedSchema = payloadSchema<BotRequestRecordedPayload>()({
  type: 'object',
  additionalProperties: false,
  required: ['websiteId', 'host', 'url', 'pageTitle', 'statusCode', 'botName', 'userAgent', 'dimensionId', 'dimensionName', 'cacheStatus', 'serveTimeMs', 'snapshotAgeS', 'bytes', 'servedAt', 'requestId'],
  properties: {
    websiteId: { type: 'string' },
    host: { type: 'string' },
    url: pageUrlSchema,
    pageTitle: { type: 'string' },
    statusCode: { type: 'integer', minimum: 100 },
    botName: { type: 'string' },
    userAgent: { type: 'string' },
    dimensionId: { type: 'integer', minimum: 0 },
    dimensionName: { type: 'string' },
    cacheStatus: { enum: [...CACHE_STATUSES] },
    serveTimeMs: { type: 'integer', minimum: 0 },
    snapshotAgeS: { type: ['integer', 'null'], minimum: 0, description: 'null when no snapshot was served (a miss rendered now, a bypass, an error answer)' },
    bytes: { type: 'integer', minimum: 0 },
    servedAt: { type: 'string', format: 'date-time' },
    requestId: { type: 'string' },
  },
});

/** The v1 envelope of a recorded request, keyed by its website as the edge records it (keys in `envelope()`'s order). */
export function botRequestRecorded(payload: BotRequestRecordedPayload, meta: { readonly id: string; readonly occurredAt: string }): BotRequestRecorded {
  return { type: BOT_REQUEST_RECORDED, version: 1, id: meta.id, occurredAt: meta.occurredAt, key: payload.websiteId, payload };
}
