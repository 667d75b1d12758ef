import { BOT_CATEGORIES, type BotCategory } from '@bpc/bots';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { pageUrlSchema } from '../page-url-schema';

export const BOT_REQUEST_RECORDED = 'BotRequestRecorded';

export const CACHE_STATUSES = ['hit', 'miss', 'stale', 'bypass'] as const;
export type CacheStatus = (typeof CACHE_STATUSES)[number];

/** What the bot was answered in: the page as HTML, or as Markdown for an agent that asked for it (docs/agents.md). */
export const ANSWER_FORMATS = ['html', 'markdown'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

/**
 * A three-way answer the edge may not know yet: whether a bot is who its
 * User-Agent claims (checked in the background, so a first request from an
 * address is `unknown`), or whether the site's robots.txt allowed that bot
 * that URL (`unknown` until the file was fetched).
 */
export const TRI_STATES = ['yes', 'no', 'unknown'] as const;
export type TriState = (typeof TRI_STATES)[number];

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
  // The fields below were added after version 1 was published: optional and
  // additive (readers default them), so events recorded before stay valid.
  /** What the bot was answered in; absent in older events (read as `html`). */
  readonly format?: AnswerFormat;
  /** Why this kind of bot reads pages (`@bpc/bots`); absent in older events (read as `other`). */
  readonly botCategory?: BotCategory;
  /** The company that runs the bot, `unknown` when no source names one; absent in older events. */
  readonly botOperator?: string;
  /** Whether the bot is who it claims, by its operator's published ranges or reverse DNS; absent in older events (read as `unknown`). */
  readonly verified?: TriState;
  /** Whether the site's robots.txt allowed this bot this URL; absent in older events (read as `unknown`). */
  readonly robotsAllowed?: TriState;
}

/** The payload as the edge writes it now: the added fields always filled, though older events may lack them. */
export type CurrentBotRequestRecordedPayload = BotRequestRecordedPayload & Required<Pick<BotRequestRecordedPayload, 'format' | 'botCategory' | 'botOperator' | 'verified' | 'robotsAllowed'>>;

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
    format: { enum: [...ANSWER_FORMATS], description: 'absent in events recorded before it was added: read as html' },
    botCategory: { enum: [...BOT_CATEGORIES], description: 'absent in events recorded before it was added: read as other' },
    botOperator: { type: 'string', description: 'unknown when no source names the operator; absent in events recorded before it was added' },
    verified: { enum: [...TRI_STATES], description: 'absent in events recorded before it was added: read as unknown' },
    robotsAllowed: { enum: [...TRI_STATES], description: 'absent in events recorded before it was added: read as unknown' },
  },
});

/** The v1 envelope of a recorded request, keyed by its website as the edge records it (keys in `envelope()`'s order). */
export function botRequestRecorded(payload: BotRequestRecordedPayload, meta: { readonly id: string; readonly occurredAt: string }): BotRequestRecorded {
  return { type: BOT_REQUEST_RECORDED, version: 1, id: meta.id, occurredAt: meta.occurredAt, key: payload.websiteId, payload };
}

/**
 * A served request as the edge records it: the event's payload, with the
 * time it was served in milliseconds (the event's `occurredAt` and the
 * payload's `servedAt`, both ISO 8601).
 */
export type RecordedBotRequest = Omit<CurrentBotRequestRecordedPayload, 'servedAt'> & { readonly servedAtMs: number };

const TEXT_FIELDS = ['websiteId', 'host', 'url', 'pageTitle', 'botName', 'userAgent', 'dimensionName', 'cacheStatus', 'requestId', 'format', 'botCategory', 'botOperator', 'verified', 'robotsAllowed'] as const;
const NUMBER_FIELDS = ['statusCode', 'dimensionId', 'serveTimeMs', 'bytes', 'servedAtMs'] as const;

/**
 * The v1 event of a recorded request, with event id `id`: its payload's
 * fields in the schema's order (the event's JSON is `JSON.stringify` of it).
 * Throws a TypeError for a request whose event could not be written: a
 * field of the wrong type, or a time a `Date` cannot hold.
 */
export function recordedBotRequestEvent(request: RecordedBotRequest, id: string): BotRequestRecorded {
  for (const field of TEXT_FIELDS) if (typeof request[field] !== 'string') throw new TypeError(`recorded bot request: ${field} is ${typeof request[field]}, not a string`);
  for (const field of NUMBER_FIELDS) if (typeof request[field] !== 'number') throw new TypeError(`recorded bot request: ${field} is ${typeof request[field]}, not a number`);
  if (request.snapshotAgeS !== null && typeof request.snapshotAgeS !== 'number') throw new TypeError(`recorded bot request: snapshotAgeS is ${typeof request.snapshotAgeS}, not a number or null`);
  const servedAt = new Date(request.servedAtMs);
  if (Number.isNaN(servedAt.getTime())) throw new TypeError(`recorded bot request: servedAtMs ${request.servedAtMs} is not a time`);
  const occurredAt = servedAt.toISOString();
  const { websiteId, host, url, pageTitle, statusCode, botName, userAgent, dimensionId, dimensionName, cacheStatus, serveTimeMs, snapshotAgeS, bytes, requestId } = request;
  const { format, botCategory, botOperator, verified, robotsAllowed } = request;
  const payload = { websiteId, host, url, pageTitle, statusCode, botName, userAgent, dimensionId, dimensionName, cacheStatus, serveTimeMs, snapshotAgeS, bytes, servedAt: occurredAt, requestId, format, botCategory, botOperator, verified, robotsAllowed };
  return botRequestRecorded(payload, { id, occurredAt });
}
