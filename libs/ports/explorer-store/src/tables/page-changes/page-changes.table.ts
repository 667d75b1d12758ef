/** What changed for bots between renders, one row per host × URL × dimension × field × day (011_page_changes.sql): the `page_changes` explorer reads it. */
export const PAGE_CHANGES_TABLE = 'page_changes';

/** Intake of single changes: its view folds them into the day's `page_changes` row (011_page_changes.sql). */
export const PAGE_CHANGE_EVENTS_TABLE = 'page_change_events';

/** One change as the projector writes it into `page_change_events`. */
export type PageChangeRow = {
  readonly host_id: number;
  readonly url: string;
  readonly dimension_id: number;
  readonly field: string;
  readonly before: string;
  readonly after: string;
  /** 3 critical, 2 warning, 1 notice (`severityRank`). */
  readonly severity_rank: number;
  /** ISO 8601 or ClickHouse DateTime64(3) text, UTC. */
  readonly changed_at: string;
  readonly event_id: string;
};

/** A severity as `page_changes.severity_rank` holds it: higher is more severe, so `max` keeps the day's worst. */
export const SEVERITY_RANKS = { critical: 3, warning: 2, notice: 1 } as const;

/**
 * `page_changes` of one host with its states merged: one row per URL ×
 * dimension × day × field with `before`, `after`, `severity` (text),
 * `changed_at` and `renders`. Binds `{hostId}`, `{startDate}` and `{endDate}`
 * (days, end exclusive).
 */
export const PAGE_CHANGES_MERGED_SQL =
  `SELECT url, dimension_id, day, field, argMinMerge(s_before) AS before, argMaxMerge(s_after) AS after, ` +
  `multiIf(max(s_rank) = 3, 'critical', max(s_rank) = 2, 'warning', 'notice') AS severity, max(s_at) AS changed_at, uniqCombinedMerge(s_renders) AS renders ` +
  `FROM (SELECT url, dimension_id, day, field, before AS s_before, after AS s_after, severity_rank AS s_rank, changed_at AS s_at, renders AS s_renders ` +
  `FROM ${PAGE_CHANGES_TABLE} WHERE host_id = {hostId:UInt32} AND day >= {startDate:Date} AND day < {endDate:Date}) GROUP BY url, dimension_id, day, field`;
