import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EXPLORER_DDL_DIR } from './explorer-ddl';

describe('the explorer tables’ DDL beside their code', () => {
  const files = readdirSync(EXPLORER_DDL_DIR).filter((name) => name.endsWith('.sql')).sort();

  it('holds each table’s file, views after the tables they read', () => {
    expect(files).toEqual(['001_bot_requests.sql', '002_search_performance.sql', '003_projection_checkpoints.sql', '004_bot_request_events.sql', '005_analyst_views.sql', '006_render_outcomes.sql', '007_recache_receipts.sql', '008_alert_deliveries.sql']);
  });

  it('creates every table the projection writes', () => {
    const ddl = files.map((name) => readFileSync(path.join(EXPLORER_DDL_DIR, name), 'utf8')).join('\n');
    for (const table of ['bot_requests', 'search_page_daily', 'search_query_daily', 'search_day_imports', 'explorer_projection_checkpoints', 'render_outcomes', 'render_recorded_events', 'recache_receipts']) {
      expect(ddl).toContain(`CREATE TABLE IF NOT EXISTS ${table}`);
    }
  });
});
