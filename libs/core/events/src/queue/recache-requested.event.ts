import type { RecacheMode, RequestablePriority } from '@bpc/domain';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { pageUrlSchema } from '../page-url-schema';

export const RECACHE_REQUESTED = 'RecacheRequested';

/**
 * URLs queued for recache on one host. The command side resolves everything
 * that depends on configuration (dimensions, URL rules) before the fact is
 * recorded, so replaying the log gives the same queue whatever the
 * configuration is then: the entries are `urls` × `dimensionIds`.
 */
export interface RecacheRequestedPayload {
  readonly hostId: number;
  /** Distinct URLs to queue (URL rules that ignore a URL already applied). */
  readonly urls: readonly string[];
  /** Resolved dimension ids, never empty. */
  readonly dimensionIds: readonly number[];
  readonly priority: RequestablePriority;
  /** Absent: the configured dimension or URL-rule action decides. */
  readonly mode?: RecacheMode;
  /** Which API took the request; `sitemap`: a sitemap recache (an API call or a configured warm-up) read the URLs from a sitemap. */
  readonly source: 'daemon-api' | 'public-api' | 'sitemap';
  /**
   * The recache receipt this request belongs to (added after v1 was first
   * written, optional so the version stays 1). A sitemap recache spreads one
   * receipt over several requests (chunks).
   */
  readonly receiptId?: string;
  /**
   * True on a request recorded together with its outcomes, after its work
   * was done (demo data writes its history so): the queue projection queues
   * none of its entries, so it never becomes live work, while its receipt
   * reads as recorded. Absent on every request the APIs take (added after
   * v1 was first written, optional so the version stays 1).
   */
  readonly settled?: boolean;
}

export type RecacheRequested = EventEnvelope<typeof RECACHE_REQUESTED, RecacheRequestedPayload>;

export const recacheRequestedSchema = payloadSchema<RecacheRequestedPayload>()({
  type: 'object',
  required: ['hostId', 'urls', 'dimensionIds', 'priority', 'source'],
  additionalProperties: false,
  properties: {
    hostId: { type: 'integer', minimum: 1 },
    urls: { type: 'array', items: pageUrlSchema },
    dimensionIds: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 } },
    priority: { enum: ['high', 'normal'] },
    mode: { enum: ['render', 'bypass'] },
    source: { enum: ['daemon-api', 'public-api', 'sitemap'] },
    receiptId: { type: 'string', minLength: 1, maxLength: 64 },
    settled: { type: 'boolean', description: 'true: recorded with its outcomes after the work was done (demo data); never queued' },
  },
});
