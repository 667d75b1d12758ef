-- SEO health: per UTC day, whether each page's (host × URL × dimension)
-- latest render of that day found critical issues (docs/seo-health.md).
-- `pages` keeps only the latest state; this small table keeps the day's
-- latest state of every page rendered that day, which is what the
-- `critical_pages_up` alert compares day over day: pages whose latest render
-- today found a critical issue against yesterday's. Projected from the same
-- RenderRecorded events with facts as `pages`, with the same issue rules.
--
-- Exactly once: ReplacingMergeTree keeps the day's latest render per key
-- (`rendered_at`), so a row projected twice folds away (exact reads use
-- FINAL). Kept 92 days: enough for the alert and a quarter's trend.
CREATE TABLE IF NOT EXISTS page_critical_days
(
    host_id         UInt32,
    day             Date                    COMMENT 'UTC day of the render',
    url             String,
    dimension_id    UInt16,
    rendered_at     DateTime64(3, 'UTC')    COMMENT 'when the day''s latest render ended',
    critical_issues UInt8                   COMMENT 'critical issue codes that render''s facts have (issuesOf)'
)
ENGINE = ReplacingMergeTree(rendered_at)
PARTITION BY toYYYYMM(day)
ORDER BY (host_id, day, url, dimension_id)
TTL day + INTERVAL 92 DAY;
