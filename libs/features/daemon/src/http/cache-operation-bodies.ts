import type { CacheInvalidatedResult, RecacheAccepted } from '@bpc/cache-operations';

/** The data of `POST /internal/cache/recache`, named as the daemon specification names it. */
export interface RecacheBody {
  readonly host_id: number;
  readonly urls_count: number;
  readonly dimension_ids_count: number;
  readonly entries_enqueued: number;
  readonly priority: string;
  /** Later envelope form only. */
  readonly paused: boolean;
  /** Later envelope form only; present when the request named one. */
  readonly mode?: string;
  /** The recache receipt (`GET /api/websites/{website}/cache/receipts/{receiptId}` reports it); later form only, an added field. */
  readonly receipt_id: string;
}

/** The data of `POST /internal/cache/invalidate`, named as the daemon specification names it. */
export interface InvalidateBody {
  readonly host_id: number;
  readonly urls_count: number;
  readonly dimension_ids_count: number;
  readonly entries_invalidated: number;
}

export function recacheBody(accepted: RecacheAccepted): RecacheBody {
  return {
    host_id: accepted.hostId,
    urls_count: accepted.urlsCount,
    dimension_ids_count: accepted.dimensionIdsCount,
    entries_enqueued: accepted.entriesEnqueued,
    priority: accepted.priority,
    paused: accepted.paused,
    ...(accepted.mode === undefined ? {} : { mode: accepted.mode }),
    receipt_id: accepted.receiptId,
  };
}

export function invalidateBody(result: CacheInvalidatedResult): InvalidateBody {
  return {
    host_id: result.hostId,
    urls_count: result.urlsCount,
    dimension_ids_count: result.dimensionIdsCount,
    entries_invalidated: result.entriesInvalidated,
  };
}
