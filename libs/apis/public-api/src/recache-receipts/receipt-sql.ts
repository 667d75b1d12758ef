import { type QueryParams, RECACHE_PURGES_TABLE, RECACHE_RECEIPTS_TABLE, RENDER_OUTCOMES_TABLE } from '@bpc/explorer-store';

/** A receipt entry's state: the queue's (`queued`, `rendering`) until the first terminal render after the request, then its outcome class. */
export const RECEIPT_STATES = ['queued', 'rendering', 'stored', 'kept', 'failed'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];

export interface ReceiptEntryRow {
  readonly url: string;
  readonly dimension_id: number;
  readonly state: ReceiptState;
  /** The terminal outcome, or the last `retry_scheduled` while the entry waits for its next attempt; '' when none. */
  readonly outcome: string;
  readonly reason: string;
  readonly attempt: number;
  /** When that outcome was recorded (Unix ms); 0 when none. */
  readonly updated_at_ms: number;
}

export interface ReceiptTotalsRow {
  readonly state: ReceiptState;
  readonly entries: number;
  /** The receipt's first request (Unix ms). */
  readonly created_at_ms: number;
  readonly source: string;
}

/**
 * One row per entry of the receipt (URL × dimension; an entry named by two
 * requests of one receipt counts from the earlier), joined with the render
 * history of its host since the receipt began:
 * - its outcome is the first terminal render (anything but
 *   `retry_scheduled`) of the entry that began at or after the request, i.e.
 *   ended at `ts` with `ts - render_ms` ≥ the request: a render already
 *   running when the request came rendered the page as it was before, and
 *   an entry queued before the request (deduplicated into one entry) counts
 *   once it renders;
 * - edge-miss renders do not count: the receipt follows its queue entries;
 * - without one, `rendering` while the queue store holds a live claim of the
 *   key (`claimed`: `<dimension>|<url>`);
 * - else `failed` (outcome `purged`) when a purge of its host named its
 *   priority after the request (the entry left the queue without a render),
 *   else `queued`.
 * Bound parameters only (receipt id, host, claimed keys).
 */
function entriesSql(): string {
  return `
    SELECT
      url, dimension_id, requested_at, source, priority,
      countIf(final) > 0 AS has_final,
      argMinIf(outcome, ts, final) AS final_outcome,
      argMinIf(reason, ts, final) AS final_reason,
      argMinIf(attempt, ts, final) AS final_attempt,
      minIf(ts, final) AS final_at,
      argMaxIf(outcome, ts, retry) AS retry_outcome,
      argMaxIf(reason, ts, retry) AS retry_reason,
      argMaxIf(attempt, ts, retry) AS retry_attempt,
      maxIf(ts, retry) AS retry_at,
      countIf(retry) > 0 AS has_retry
    FROM
    (
      SELECT
        e.url AS url, e.dimension_id AS dimension_id, e.first_requested_at AS requested_at, e.first_source AS source, e.first_priority AS priority,
        o.outcome AS outcome, o.reason AS reason, o.attempt AS attempt, o.ts AS ts,
        o.matched = 1 AND o.ts - toIntervalMillisecond(o.render_ms) >= e.first_requested_at AS after_request,
        after_request AND o.outcome != 'retry_scheduled' AS final,
        after_request AND o.outcome = 'retry_scheduled' AS retry
      FROM
      (
        SELECT url, dimension_id, min(requested_at) AS first_requested_at, argMin(source, requested_at) AS first_source, argMin(priority, requested_at) AS first_priority
        FROM ${RECACHE_RECEIPTS_TABLE} FINAL
        WHERE receipt_id = {receiptId:String} AND host_id = {hostId:UInt32}
        GROUP BY url, dimension_id
      ) AS e
      LEFT JOIN
      (
        SELECT url, dimension_id, outcome, reason, attempt, ts, render_ms, toUInt8(1) AS matched
        FROM ${RENDER_OUTCOMES_TABLE} FINAL
        WHERE host_id = {hostId:UInt32}
          AND trigger != 'edge_miss'
          AND ts >= (SELECT min(requested_at) FROM ${RECACHE_RECEIPTS_TABLE} WHERE receipt_id = {receiptId:String} AND host_id = {hostId:UInt32})
          AND url IN (SELECT url FROM ${RECACHE_RECEIPTS_TABLE} WHERE receipt_id = {receiptId:String} AND host_id = {hostId:UInt32})
      ) AS o
      ON o.url = e.url AND o.dimension_id = e.dimension_id
    )
    GROUP BY url, dimension_id, requested_at, source, priority`;
}

/** The host's purges since the receipt began, as (time, priorities) pairs: few, read once per statement. */
const PURGES = `(
  SELECT groupArray((purged_at, priorities))
  FROM ${RECACHE_PURGES_TABLE} FINAL
  WHERE host_id = {hostId:UInt32}
    AND purged_at > (SELECT min(requested_at) FROM ${RECACHE_RECEIPTS_TABLE} WHERE receipt_id = {receiptId:String} AND host_id = {hostId:UInt32})
)`;

function statesSql(): string {
  return `
    SELECT
      url, dimension_id, requested_at, source,
      multiIf(
        has_final AND final_outcome = 'stored', 'stored',
        has_final AND startsWith(final_outcome, 'kept_'), 'kept',
        has_final, 'failed',
        has({claimed:Array(String)}, concat(toString(dimension_id), '|', url)), 'rendering',
        purged_at > toDateTime64(0, 3, 'UTC'), 'failed',
        'queued') AS state,
      state = 'failed' AND NOT has_final AS purged,
      multiIf(has_final, final_outcome, purged, 'purged', has_retry, retry_outcome, '') AS outcome,
      multiIf(has_final, final_reason, purged, 'removed from the queue by a purge', has_retry, retry_reason, '') AS reason,
      multiIf(has_final, final_attempt, has_retry, retry_attempt, 0) AS attempt,
      multiIf(has_final, toUnixTimestamp64Milli(final_at), purged, toUnixTimestamp64Milli(purged_at), has_retry, toUnixTimestamp64Milli(retry_at), 0) AS updated_at_ms
    FROM
    (
      SELECT *,
        -- The first purge after the request that named the entry's priority (the priority it was requested at).
        arrayFirst(p -> p.1 > requested_at AND has(p.2, priority), ${PURGES}).1 AS purged_at
      FROM (${entriesSql()})
    )`;
}

export interface ReceiptSqlInput {
  readonly receiptId: string;
  readonly hostId: number;
  /** Keys held by a live claim now (`<dimension>|<url>`). */
  readonly claimed: readonly string[];
}

/** Entries per state, with the receipt's start and source (no rows: the host has no such receipt). */
export function receiptTotalsSql({ receiptId, hostId, claimed }: ReceiptSqlInput): { sql: string; params: QueryParams } {
  return {
    sql: `SELECT state, count() AS entries, toUnixTimestamp64Milli(min(requested_at)) AS created_at_ms, argMin(source, requested_at) AS source FROM (${statesSql()}) GROUP BY state`,
    params: { receiptId, hostId, claimed },
  };
}

/** One page of entries, in URL then dimension order, optionally of one state. */
export function receiptPageSql({ receiptId, hostId, claimed }: ReceiptSqlInput, state: ReceiptState | undefined, page: number, perPage: number): { sql: string; params: QueryParams } {
  return {
    sql: `SELECT url, dimension_id, state, outcome, reason, attempt, updated_at_ms
      FROM (${statesSql()})
      WHERE {state:String} = '' OR state = {state:String}
      ORDER BY url, dimension_id
      LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
    params: { receiptId, hostId, claimed, state: state ?? '', limit: perPage, offset: (page - 1) * perPage },
  };
}
