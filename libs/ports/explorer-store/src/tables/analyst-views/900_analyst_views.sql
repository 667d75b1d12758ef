-- Views for analysts reading ClickHouse directly (docs/analysts.md): the
-- service's data as facts, without its intake and deduplication details.
-- Created by the same migration as the tables, in both modes (chDB and a
-- ClickHouse server). `OR REPLACE` keeps them in step with this file, and
-- its number (900) runs it after every table's DDL, columns added later
-- included (009_bot_request_fields.sql).
--
-- - FINAL is applied here, so counts, sums and averages are exact at any
--   moment (a retried projector batch that got in twice is counted once).
-- - Search performance keeps only each day's latest import: a re-import
--   replaces the whole day, also dropping rows the new import no longer has.
-- - The intake table (bot_request_events, a Null table) and the projector's
--   checkpoints are left out: they hold nothing to analyse.

-- One row per bot request the edge served (UTC timestamps).
CREATE OR REPLACE VIEW analyst_bot_requests AS
SELECT
    website, host, url, page_title, status_code, bot_name, user_agent,
    dimension_id, dimension_name, cache_status, serve_time_ms, snapshot_age_s,
    bytes, ts, request_id, format, bot_category, bot_operator, verified,
    robots_allowed
FROM bot_requests FINAL;

-- Search performance per page and day, as last imported.
CREATE OR REPLACE VIEW analyst_search_pages AS
SELECT website, date, url, clicks, impressions, position
FROM search_page_daily FINAL
WHERE (website, date, imported_at) IN (
    SELECT website, date, max(imported_at) FROM search_day_imports FINAL WHERE grain = 'page' GROUP BY website, date);

-- Search performance per query (keyword) and day, as last imported.
CREATE OR REPLACE VIEW analyst_search_queries AS
SELECT website, date, query, clicks, impressions, position
FROM search_query_daily FINAL
WHERE (website, date, imported_at) IN (
    SELECT website, date, max(imported_at) FROM search_day_imports FINAL WHERE grain = 'query' GROUP BY website, date);
