import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EXPLORER_DDL_DIR } from './explorer-ddl';
import { ALERT_DELIVERIES_TABLE, PAGE_CHANGE_EVENTS_TABLE, PAGE_CRITICAL_DAYS_TABLE, PAGE_CHANGES_TABLE, PAGES_TABLE, BOT_REQUEST_EVENTS_TABLE, BOT_REQUESTS_TABLE, CHECKPOINTS_TABLE, RECACHE_PURGES_TABLE, RECACHE_RECEIPTS_TABLE, RENDER_OUTCOMES_TABLE, RENDER_RECORDED_EVENTS_TABLE, SEARCH_DAY_IMPORTS_TABLE, SEARCH_TABLES } from './index';

/** The DDL of the folder `home`, one text. */
const ddlOf = (home: string): string =>
  readdirSync(path.join(EXPLORER_DDL_DIR, home))
    .filter((name) => name.endsWith('.sql'))
    .map((name) => readFileSync(path.join(EXPLORER_DDL_DIR, home, name), 'utf8'))
    .join('\n');

describe('the explorer tables, one home each', () => {
  it('holds each table’s file in its folder, views after the tables they read', () => {
    const files = readdirSync(EXPLORER_DDL_DIR, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.sql')).sort();
    expect(files).toEqual([
      'alert-deliveries/008_alert_deliveries.sql',
      'analyst-views/900_analyst_views.sql',
      'bot-requests/001_bot_requests.sql',
      'bot-requests/004_bot_request_events.sql',
      'bot-requests/009_bot_request_fields.sql',
      'page-changes/011_page_changes.sql',
      'pages/010_pages.sql',
      'pages/012_page_critical_days.sql',
      'pages/013_page_critical_day_issues.sql',
      'projection-checkpoints/003_projection_checkpoints.sql',
      'recache-receipts/007_recache_receipts.sql',
      'render-outcomes/006_render_outcomes.sql',
      'search-performance/002_search_performance.sql',
    ]);
  });

  it.each([
    ['bot-requests', [BOT_REQUESTS_TABLE, BOT_REQUEST_EVENTS_TABLE]],
    ['search-performance', [...Object.values(SEARCH_TABLES), SEARCH_DAY_IMPORTS_TABLE]],
    ['projection-checkpoints', [CHECKPOINTS_TABLE]],
    ['render-outcomes', [RENDER_OUTCOMES_TABLE, RENDER_RECORDED_EVENTS_TABLE]],
    ['recache-receipts', [RECACHE_RECEIPTS_TABLE, RECACHE_PURGES_TABLE]],
    ['alert-deliveries', [ALERT_DELIVERIES_TABLE]],
    ['pages', [PAGES_TABLE, PAGE_CRITICAL_DAYS_TABLE]],
    ['page-changes', [PAGE_CHANGES_TABLE, PAGE_CHANGE_EVENTS_TABLE]],
  ])('%s creates the tables its module names', (home, tables) => {
    for (const table of tables) expect(ddlOf(home)).toContain(`CREATE TABLE IF NOT EXISTS ${table}\n`);
  });
});
