import { assertNever, type IssueThresholds } from '@bpc/domain';
import { BOT_REQUEST_RECORDED, EXPLORER_EVENT_CATALOG, ExplorerEvent, envelopeJsonTest, RENDER_EVENT_CATALOG, RENDER_RECORDED, RenderEvent, SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded } from '@bpc/events';
import { BOT_REQUEST_EVENTS_TABLE, BOT_REQUESTS_TABLE, RENDER_OUTCOMES_TABLE, RENDER_RECORDED_EVENTS_TABLE, SEARCH_DAY_IMPORTS_TABLE, type SearchDayImportRow, type SearchDayRow, SEARCH_TABLES } from '@bpc/explorer-store';

import { pageRows } from './page-projection';
import { push, type TableRows } from './table-rows';

export { push, type TableRows } from './table-rows';

/** Events whose intake table takes them as they are: the table's view maps them to rows (their one mapping, in its DDL). */
const INTAKES = [
  { isStored: envelopeJsonTest(BOT_REQUEST_RECORDED, EXPLORER_EVENT_CATALOG[BOT_REQUEST_RECORDED].version), table: BOT_REQUEST_EVENTS_TABLE, target: BOT_REQUESTS_TABLE },
  { isStored: envelopeJsonTest(RENDER_RECORDED, RENDER_EVENT_CATALOG[RENDER_RECORDED].version), table: RENDER_RECORDED_EVENTS_TABLE, target: RENDER_OUTCOMES_TABLE },
] as const;

/** The table rows inserted into `table` land in: an intake table's target, else itself (what the projected-rows metric counts). */
export function landsIn(table: string): string {
  return INTAKES.find((intake) => intake.table === table)?.target ?? table;
}

/** The intake table that takes an event stored as `stored` (its JSON as the log holds it) without parsing it; undefined when it must be parsed. */
export function intakeOfStored(stored: Buffer): string | undefined {
  // A loop, not `find`: this runs for nearly every event the projector reads.
  for (const intake of INTAKES) if (intake.isStored(stored)) return intake.table;
  return undefined;
}

/**
 * The rows one event contributes, per table (pure); bot requests and render
 * facts go to their intake tables as they are. `thresholds`: each host's SEO
 * issue thresholds for the `pages` rows (absent: the defaults).
 */
export function explorerRows(event: ExplorerEvent | RenderEvent, into: TableRows, thresholds?: ReadonlyMap<number, IssueThresholds>): void {
  switch (event.type) {
    case RENDER_RECORDED:
      push(into, RENDER_RECORDED_EVENTS_TABLE, { ...event });
      pageRows(event, into, thresholds);
      return;
    case BOT_REQUEST_RECORDED:
      push(into, BOT_REQUEST_EVENTS_TABLE, { ...event });
      return;
    case SEARCH_PERFORMANCE_RECORDED: {
      const table = SEARCH_TABLES[event.payload.grain];
      for (const row of searchRows(event)) push(into, table, row);
      // Marks this import as the day's latest: queries ignore rows of earlier imports of the day.
      const marker: SearchDayImportRow = { website: event.payload.websiteId, grain: event.payload.grain, date: event.payload.date, imported_at: event.occurredAt };
      push(into, SEARCH_DAY_IMPORTS_TABLE, marker);
      return;
    }
    default:
      return assertNever(event);
  }
}

/** The rows of one imported day of one grain: the page's `url` or the keyword's `query`. */
export function searchRows(event: SearchPerformanceRecorded): SearchDayRow[] {
  const { websiteId, date, grain, rows } = event.payload;
  return rows.map((r) => {
    const figures = { website: websiteId, date, clicks: r.clicks, impressions: r.impressions, position: r.position, imported_at: event.occurredAt };
    return grain === 'page' ? { ...figures, url: r.key } : { ...figures, query: r.key };
  });
}
