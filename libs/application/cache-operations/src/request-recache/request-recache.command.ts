import type { RecacheMode, RecacheRequestInput, RequestablePriority } from '@bpc/domain';
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

/** What a recache request queued; each API words it in its own contract. */
export interface RecacheAccepted {
  readonly hostId: number;
  /** URLs as the request carried them, before normalising and de-duplicating. */
  readonly urlsCount: number;
  readonly dimensionIdsCount: number;
  /** Entries (URL × dimension) the queue projection holds for the request: queued now, or already waiting and kept. */
  readonly entriesEnqueued: number;
  readonly priority: RequestablePriority;
  /** The host's draining is paused (the work is queued all the same). */
  readonly paused: boolean;
  /** Present when the request forced one. */
  readonly mode?: RecacheMode;
  /** The recache receipt, which follows each entry to its outcome. */
  readonly receiptId: string;
}
