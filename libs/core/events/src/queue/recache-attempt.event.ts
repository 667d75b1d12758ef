import type { Priority, RecacheMode } from '@bpc/domain';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { pageUrlSchema } from '../page-url-schema';

export const RECACHE_SUCCEEDED = 'RecacheSucceeded';
export const RECACHE_RETRY_SCHEDULED = 'RecacheRetryScheduled';
export const RECACHE_GAVE_UP = 'RecacheGaveUp';

/** The entry an attempt was about. */
export interface RecacheAttemptSubject {
  readonly hostId: number;
  readonly url: string;
  readonly dimensionId: number;
  readonly priority: Priority;
  /** Id of the queue entry (the event that created it). */
  readonly entryId: string;
  /** 1-based number of this attempt. */
  readonly attempt: number;
  readonly durationMs: number;
}

export interface RecacheSucceededPayload extends RecacheAttemptSubject {
  /** What was stored: a browser render or an origin fetch; `kept` when render-wins left a fresh render in place. */
  readonly outcome: 'rendered' | 'fetched' | 'kept';
  readonly mode: RecacheMode;
  readonly statusCode?: number;
}

export interface RecacheRetryScheduledPayload extends RecacheAttemptSubject {
  readonly reason: string;
  /** Epoch milliseconds of the next attempt. */
  readonly retryAt: number;
}

export interface RecacheGaveUpPayload extends RecacheAttemptSubject {
  readonly reason: string;
}

export type RecacheSucceeded = EventEnvelope<typeof RECACHE_SUCCEEDED, RecacheSucceededPayload>;
export type RecacheRetryScheduled = EventEnvelope<typeof RECACHE_RETRY_SCHEDULED, RecacheRetryScheduledPayload>;
export type RecacheGaveUp = EventEnvelope<typeof RECACHE_GAVE_UP, RecacheGaveUpPayload>;

const subject = {
  hostId: { type: 'integer', minimum: 1 },
  url: pageUrlSchema,
  dimensionId: { type: 'integer', minimum: 1 },
  priority: { enum: ['high', 'normal', 'autorecache'] },
  entryId: { type: 'string' },
  attempt: { type: 'integer', minimum: 1 },
  durationMs: { type: 'integer', minimum: 0 },
} as const;
const subjectRequired = ['hostId', 'url', 'dimensionId', 'priority', 'entryId', 'attempt', 'durationMs'] as const;

export const recacheSucceededSchema = payloadSchema<RecacheSucceededPayload>()({
  type: 'object',
  required: [...subjectRequired, 'outcome', 'mode'],
  additionalProperties: false,
  properties: { ...subject, outcome: { enum: ['rendered', 'fetched', 'kept'] }, mode: { enum: ['render', 'bypass'] }, statusCode: { type: 'integer' } },
});

export const recacheRetryScheduledSchema = payloadSchema<RecacheRetryScheduledPayload>()({
  type: 'object',
  required: [...subjectRequired, 'reason', 'retryAt'],
  additionalProperties: false,
  properties: { ...subject, reason: { type: 'string' }, retryAt: { type: 'integer' } },
});

export const recacheGaveUpSchema = payloadSchema<RecacheGaveUpPayload>()({
  type: 'object',
  required: [...subjectRequired, 'reason'],
  additionalProperties: false,
  properties: { ...subject, reason: { type: 'string' } },
});
