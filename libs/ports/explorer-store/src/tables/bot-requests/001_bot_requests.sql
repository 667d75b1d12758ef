-- Bot request log: one row per bot request served by the edge, projected from
-- BotRequestRecorded events. Read by the `events` explorer (requests,
-- unique_pages, comparison) and its CSV exports.
--
-- Exactly-once counts, two layers:
-- 1. Insert deduplication: the projector inserts each batch with an
--    insert_deduplication_token derived from its log positions; a retried batch
--    (ambiguous write, restart before the offset commit) is dropped by the
--    engine. non_replicated_deduplication_window keeps the last 1000 batch
--    tokens per table.
-- 2. ReplacingMergeTree keyed by event_id: a duplicate that still gets in (a
--    batch re-formed with other boundaries after a crash, so another token)
--    shares website, ts and event_id with the original, lands in the same
--    partition and is folded away by merges. Queries that must be exact at
--    any moment read `FROM bot_requests FINAL`; the partition key follows ts,
--    so FINAL never merges across partitions and only touches parts that
--    overlap (measured ~3x a plain scan for one website's month in 10M rows).
--    Plain MergeTree would make counts exact only if batches never re-form;
--    uniqExact(event_id) would fix counts but not sums or averages.
--
-- Timestamps are UTC; ids are kept as strings so the envelope id format can
-- change without a schema change. Columns added since the table was first
-- released (format, bot_category, bot_operator, verified, robots_allowed)
-- are in 009_bot_request_fields.sql.
CREATE TABLE IF NOT EXISTS bot_requests
(
    website        LowCardinality(String)  COMMENT 'website identifier, as in the public API paths',
    host           LowCardinality(String)  COMMENT 'host of the requested URL',
    url            String                  COMMENT 'full requested page URL',
    page_title     String                  COMMENT 'title of the served page, empty when unknown',
    status_code    UInt16                  COMMENT 'HTTP status served to the bot',
    bot_name       LowCardinality(String)  COMMENT 'bot recognised from the user agent, e.g. Googlebot',
    user_agent     String,
    dimension_id   UInt16                  COMMENT 'cache dimension the request resolved to',
    dimension_name LowCardinality(String)  COMMENT 'e.g. desktop, mobile',
    cache_status   Enum8('hit' = 1, 'miss' = 2, 'stale' = 3, 'bypass' = 4),
    serve_time_ms  UInt32                  COMMENT 'time to serve the response',
    snapshot_age_s Nullable(UInt32)        COMMENT 'age of the served snapshot; NULL when none was served (miss rendered now, bypass)',
    bytes          UInt64                  COMMENT 'response body size',
    ts             DateTime64(3, 'UTC')    COMMENT 'when the request was served',
    request_id     String                  COMMENT 'edge request id: the _rowId of the events explorer',
    event_id       String                  COMMENT 'id of the BotRequestRecorded event: the deduplication key',
    INDEX request_id_idx request_id TYPE bloom_filter(0.01) GRANULARITY 4
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (website, ts, event_id)
SETTINGS non_replicated_deduplication_window = 1000;
