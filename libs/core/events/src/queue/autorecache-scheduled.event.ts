import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { pageUrlSchema } from '../page-url-schema';

export const AUTORECACHE_SCHEDULED = 'AutorecacheScheduled';

/**
 * A bot was served a cache entry: its URL × dimension is queued at the
 * `autorecache` priority, due when the entry expires (its refresh time). An
 * entry already queued for the key is kept (with the earlier due time).
 */
export interface AutorecacheScheduledPayload {
  readonly hostId: number;
  readonly url: string;
  readonly dimensionId: number;
  /** Epoch milliseconds: the served entry's expiry. */
  readonly dueAt: number;
}

export type AutorecacheScheduled = EventEnvelope<typeof AUTORECACHE_SCHEDULED, AutorecacheScheduledPayload>;

export const autorecacheScheduledSchema = payloadSchema<AutorecacheScheduledPayload>()({
  type: 'object',
  required: ['hostId', 'url', 'dimensionId', 'dueAt'],
  additionalProperties: false,
  properties: {
    hostId: { type: 'integer', minimum: 1 },
    url: pageUrlSchema,
    dimensionId: { type: 'integer', minimum: 1 },
    dueAt: { type: 'integer', description: 'epoch milliseconds' },
  },
});
