import type { Priority } from '@bpc/domain';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';

export const QUEUE_PURGED = 'QueuePurged';

/** Queued entries of the named priorities were removed from a host's queues (entries already pulled are not). */
export interface QueuePurgedPayload {
  readonly hostId: number;
  /** Resolved and de-duplicated: never empty. */
  readonly priorities: readonly Priority[];
}

export type QueuePurged = EventEnvelope<typeof QUEUE_PURGED, QueuePurgedPayload>;

export const queuePurgedSchema = payloadSchema<QueuePurgedPayload>()({
  type: 'object',
  required: ['hostId', 'priorities'],
  additionalProperties: false,
  properties: {
    hostId: { type: 'integer', minimum: 1 },
    priorities: { type: 'array', minItems: 1, items: { enum: ['high', 'normal', 'autorecache'] } },
  },
});
