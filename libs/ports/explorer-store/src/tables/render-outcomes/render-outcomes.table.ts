/** Render history, one row per render or origin fetch (006_render_outcomes.sql): render history, recache receipts and alert rules read it. */
export const RENDER_OUTCOMES_TABLE = 'render_outcomes';

/** Intake of `RenderRecorded` v1 envelopes as the log holds them: its view writes their rows into `render_outcomes` (006_render_outcomes.sql). */
export const RENDER_RECORDED_EVENTS_TABLE = 'render_recorded_events';

/** One `render_outcomes` row, as its view writes it (a test may insert it directly). */
export type RenderOutcomeRow = {
  readonly host_id: number;
  readonly url: string;
  readonly dimension_id: number;
  readonly mode: string;
  readonly trigger: string;
  readonly outcome: string;
  readonly reason: string;
  readonly status_code: number;
  readonly render_ms: number;
  readonly bytes: number;
  readonly attempt: number;
  readonly entry_id: string;
  /** ClickHouse DateTime64(3) text, UTC. */
  readonly ts: string;
  readonly event_id: string;
};
