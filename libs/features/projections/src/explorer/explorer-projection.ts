import { assertNever } from '@bpc/domain';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, ExplorerEvent, RENDER_RECORDED, RenderEvent, RenderRecorded, SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded } from '@bpc/events';

export const BOT_REQUESTS_TABLE = 'bot_requests';
/** Intake of stored `BotRequestRecorded` v1 envelopes, written on into `bot_requests` by a view (libs/features/projections/src/explorer/004_…). */
export const BOT_REQUEST_EVENTS_TABLE = 'bot_request_events';
/** Render history (libs/features/projections/src/explorer/006_render_outcomes.sql). */
export const RENDER_OUTCOMES_TABLE = 'render_outcomes';
/** Intake of stored `RenderRecorded` v1 envelopes, written on into `render_outcomes` by a view (006_…). */
export const RENDER_RECORDED_EVENTS_TABLE = 'render_recorded_events';
export const SEARCH_TABLES = { page: 'search_page_daily', query: 'search_query_daily' } as const;

export type TableRows = Map<string, Record<string, unknown>[]>;

export const SEARCH_DAY_IMPORTS_TABLE = 'search_day_imports';

/** The rows one event contributes, per table (pure). */
export function explorerRows(event: ExplorerEvent | RenderEvent, into: TableRows): void {
  switch (event.type) {
    case RENDER_RECORDED:
      push(into, RENDER_OUTCOMES_TABLE, renderOutcomeRow(event));
      return;
    case BOT_REQUEST_RECORDED:
      push(into, BOT_REQUESTS_TABLE, botRequestRow(event));
      return;
    case SEARCH_PERFORMANCE_RECORDED: {
      const table = SEARCH_TABLES[event.payload.grain];
      for (const row of searchRows(event)) push(into, table, row);
      // Marks this import as the day's latest: queries ignore rows of earlier imports of the day.
      push(into, SEARCH_DAY_IMPORTS_TABLE, { website: event.payload.websiteId, grain: event.payload.grain, date: event.payload.date, imported_at: event.occurredAt });
      return;
    }
    default:
      return assertNever(event);
  }
}

export function botRequestRow(event: BotRequestRecorded): Record<string, unknown> {
  const p = event.payload;
  return {
    website: p.websiteId,
    host: p.host,
    url: p.url,
    page_title: p.pageTitle,
    status_code: p.statusCode,
    bot_name: p.botName,
    user_agent: p.userAgent,
    dimension_id: p.dimensionId,
    dimension_name: p.dimensionName,
    cache_status: p.cacheStatus,
    serve_time_ms: p.serveTimeMs,
    snapshot_age_s: p.snapshotAgeS,
    bytes: p.bytes,
    ts: p.servedAt,
    request_id: p.requestId,
    event_id: event.id,
  };
}

export function renderOutcomeRow(event: RenderRecorded): Record<string, unknown> {
  const p = event.payload;
  return {
    host_id: p.hostId,
    url: p.url,
    dimension_id: p.dimensionId,
    mode: p.mode,
    trigger: p.trigger,
    outcome: p.outcome,
    reason: p.reason,
    status_code: p.statusCode,
    render_ms: p.renderMs,
    bytes: p.bytes,
    attempt: p.attempt,
    entry_id: p.entryId ?? '',
    ts: event.occurredAt,
    event_id: event.id,
  };
}

export function searchRows(event: SearchPerformanceRecorded): Record<string, unknown>[] {
  const { websiteId, date, grain, rows } = event.payload;
  const key = grain === 'page' ? 'url' : 'query';
  return rows.map((r) => ({ website: websiteId, date, [key]: r.key, clicks: r.clicks, impressions: r.impressions, position: r.position, imported_at: event.occurredAt }));
}

function push(into: TableRows, table: string, row: Record<string, unknown>): void {
  const rows = into.get(table);
  if (rows) rows.push(row);
  else into.set(table, [row]);
}
