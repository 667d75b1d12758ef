import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { pageUrlSchema } from '../page-url-schema';

export const CACHE_INVALIDATED = 'CacheInvalidated';

/** Cache entries of `urls` × `dimensionIds` on a host were dropped; the next bot request renders afresh. */
export interface CacheInvalidatedPayload {
  readonly hostId: number;
  readonly urls: readonly string[];
  readonly dimensionIds: readonly number[];
  readonly source: 'daemon-api' | 'public-api';
}

export type CacheInvalidated = EventEnvelope<typeof CACHE_INVALIDATED, CacheInvalidatedPayload>;

export const cacheInvalidatedSchema = payloadSchema<CacheInvalidatedPayload>()({
  type: 'object',
  required: ['hostId', 'urls', 'dimensionIds', 'source'],
  additionalProperties: false,
  properties: {
    hostId: { type: 'integer', minimum: 1 },
    urls: { type: 'array', items: pageUrlSchema },
    dimensionIds: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 } },
    source: { enum: ['daemon-api', 'public-api'] },
  },
});
