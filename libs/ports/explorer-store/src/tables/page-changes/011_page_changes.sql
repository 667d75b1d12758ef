-- SEO health: what changed for bots between renders (RenderRecorded
-- `changes`, docs/seo-health.md), coalesced to one row per host × URL ×
-- dimension × field × day, so a page whose facts change on every render
-- keeps at most one row per field a day: the day's first `before`, its
-- latest `after`, the most severe severity, when the last change happened
-- and how many renders changed it. Read by the `page_changes` explorer.
--
-- Every state is idempotent (argMin/argMax/max, and a distinct count of
-- event ids), so a change projected twice counts once. Read through
-- `*Merge` functions grouped by the key (PAGE_CHANGES_FINAL_SQL).
CREATE TABLE IF NOT EXISTS page_changes
(
    host_id         UInt32                      COMMENT 'host of the page (hosts[].host_id)',
    url             String,
    dimension_id    UInt16,
    day             Date                        COMMENT 'UTC day of the changes',
    field           LowCardinality(String)      COMMENT 'noindex, status_code, canonical, structured_data, word_count, title, description, h1, nofollow, lang',
    before          AggregateFunction(argMin, String, DateTime64(3, 'UTC'))  COMMENT 'the value before the day''s first change',
    after           AggregateFunction(argMax, String, DateTime64(3, 'UTC'))  COMMENT 'the value after the day''s latest change',
    severity_rank   SimpleAggregateFunction(max, UInt8) COMMENT '3 critical, 2 warning, 1 notice: the day''s most severe',
    changed_at      SimpleAggregateFunction(max, DateTime64(3, 'UTC')) COMMENT 'when the latest change happened',
    renders         AggregateFunction(uniqCombined, String) COMMENT 'distinct renders (event ids) that changed the field that day'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (host_id, day, url, dimension_id, field);

-- The projector's intake: one row per change as `pageChangeRows` builds it;
-- the view folds them into the day's row.
CREATE TABLE IF NOT EXISTS page_change_events
(
    host_id       UInt32,
    url           String,
    dimension_id  UInt16,
    field         String,
    before        String,
    after         String,
    severity_rank UInt8,
    changed_at    DateTime64(3, 'UTC'),
    event_id      String
)
ENGINE = Null;

-- Columns are renamed first: an output alias must not shadow the column it is computed from.
CREATE MATERIALIZED VIEW IF NOT EXISTS page_change_events_mv TO page_changes AS
SELECT
    host_id,
    url,
    dimension_id,
    toDate(v_at)                 AS day,
    field,
    argMinState(v_before, v_at)  AS before,
    argMaxState(v_after, v_at)   AS after,
    max(v_rank)                  AS severity_rank,
    max(v_at)                    AS changed_at,
    uniqCombinedState(v_event)   AS renders
FROM (SELECT host_id, url, dimension_id, field, before AS v_before, after AS v_after, severity_rank AS v_rank, changed_at AS v_at, event_id AS v_event FROM page_change_events)
GROUP BY host_id, url, dimension_id, day, field;
