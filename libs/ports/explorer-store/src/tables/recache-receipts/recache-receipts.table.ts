/** One row per URL × dimension a receipted recache queued (007_recache_receipts.sql): recache receipts read it. */
export const RECACHE_RECEIPTS_TABLE = 'recache_receipts';

/** One row per queue purge, so a receipt tells a purged entry from a waiting one (007_recache_receipts.sql). */
export const RECACHE_PURGES_TABLE = 'recache_purges';

export type RecacheReceiptRow = {
  readonly receipt_id: string;
  readonly host_id: number;
  readonly url: string;
  readonly dimension_id: number;
  readonly source: string;
  readonly priority: string;
  readonly requested_at: string;
  readonly event_id: string;
};

export type RecachePurgeRow = {
  readonly host_id: number;
  readonly priorities: readonly string[];
  readonly purged_at: string;
  readonly event_id: string;
};
