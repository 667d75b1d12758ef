import type { RequestablePriority } from '@bpc/domain';

/** Queue URLs of a website's host for re-rendering, on behalf of a token holder. */
export class RecacheWebsite {
  constructor(
    readonly websiteId: string,
    readonly urls: readonly string[],
    readonly priority: RequestablePriority,
  ) {}
}

export interface WebsiteRecacheAccepted {
  /** Render jobs placed or kept in the queue: URLs × cache dimensions, after URL rules. */
  readonly entriesEnqueued: number;
  /** Distinct URLs taken from the request. */
  readonly urlsAccepted: number;
  /** The recache receipt: `GET …/cache/receipts/{receiptId}` follows each entry to its outcome (added field). */
  readonly receiptId: string;
}
