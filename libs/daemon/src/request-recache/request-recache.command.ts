import type { RecacheRequestInput } from '@bpc/domain';
import type { RecacheRequestedPayload } from '@bpc/events';

/** Queue URLs of one host for recache. */
export class RequestRecache {
  constructor(
    readonly input: RecacheRequestInput,
    readonly source: RecacheRequestedPayload['source'],
    /** The recache receipt the request belongs to (one receipt may span several requests, as a sitemap's chunks do). */
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
}
