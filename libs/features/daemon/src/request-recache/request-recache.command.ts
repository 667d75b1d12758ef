import type { RecacheRequestInput } from '@bpc/domain';
import type { RecacheRequestedPayload } from '@bpc/events';

/** Queue URLs of one host for recache. */
export class RequestRecache {
  constructor(
    readonly input: RecacheRequestInput,
    readonly source: RecacheRequestedPayload['source'],
    /** The receipt this request belongs to: a sitemap recache passes one for all its chunks; absent, a fresh one is minted. */
    readonly receiptId?: string,
  ) {}
}

export interface RecacheAccepted {
  readonly host_id: number;
  readonly urls_count: number;
  readonly dimension_ids_count: number;
  readonly entries_enqueued: number;
  readonly priority: string;
  /** Later envelope form only. */
  readonly paused: boolean;
  /** Later envelope form only; present when the request named one. */
  readonly mode?: string;
  /** The recache receipt (`GET /api/websites/{website}/cache/receipts/{receiptId}` reports it); added field. */
  readonly receipt_id: string;
}
