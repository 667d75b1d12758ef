-- Render history: one row per render or origin fetch (scheduler attempts and
-- edge misses), projected from RenderRecorded events (topic bpc.renders.v1).
-- Read by the render-history endpoints of the public API, the dashboard's
-- Renders page, recache receipts and alert rules.
--
-- Exactly once as bot_requests: insert deduplication tokens from log
-- positions, and ReplacingMergeTree keyed by event_id (exact reads use FINAL).
-- The table is keyed by host: a website is one host (websites[].host_id).
CREATE TABLE IF NOT EXISTS render_outcomes
(
    host_id      UInt32                  COMMENT 'host of the page (hosts[].host_id)',
    url          String                  COMMENT 'public page URL as queued',
    dimension_id UInt16                  COMMENT 'cache dimension rendered',
    mode         LowCardinality(String)  COMMENT 'render (browser) or bypass (origin fetch)',
    trigger      LowCardinality(String)  COMMENT 'recache_high, recache_normal, autorecache, sitemap, edge_miss',
    outcome      LowCardinality(String)  COMMENT 'stored, kept_blank, kept_timeout, kept_soft_404, kept_smaller, kept_fresher, retry_scheduled, gave_up, failed',
    reason       String                  COMMENT 'why, in words; empty for stored',
    status_code  UInt16                  COMMENT 'status of the produced page, 0 when none',
    render_ms    UInt32                  COMMENT 'time the render or fetch took',
    bytes        UInt64                  COMMENT 'size of the produced body, 0 when none',
    attempt      UInt16                  COMMENT '1-based attempt of the queue entry (1 for an edge miss)',
    entry_id     String                  COMMENT 'queue entry id (the request that last queued it); empty for an edge miss',
    ts           DateTime64(3, 'UTC')    COMMENT 'when the render ended',
    event_id     String                  COMMENT 'id of the RenderRecorded event: the deduplication key',
    INDEX url_idx url TYPE bloom_filter(0.01) GRANULARITY 4,
    INDEX entry_idx entry_id TYPE bloom_filter(0.01) GRANULARITY 4
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (host_id, ts, event_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- The projector's intake for stored `RenderRecorded` v1 events, as for bot
-- requests (004_bot_request_events.sql): the events' JSON exactly as the log
-- holds it, one envelope per line (JSONEachRow), into this Null table; the
-- view below writes their rows into `render_outcomes`. `entryId` is absent
-- for an edge miss: it reads as ''. This view is the table's one mapping
-- (render-outcomes.int-spec.ts in libs/features/projections pins it).
CREATE TABLE IF NOT EXISTS render_recorded_events
(
    type       String,
    version    UInt16,
    id         String,
    occurredAt String,
    key        String,
    payload    Tuple(
        hostId      UInt32,
        url         String,
        dimensionId UInt16,
        mode        String,
        trigger     String,
        outcome     String,
        reason      String,
        statusCode  UInt16,
        renderMs    UInt32,
        bytes       UInt64,
        attempt     UInt16,
        entryId     String)
)
ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS render_recorded_events_mv TO render_outcomes AS
SELECT
    payload.hostId                                     AS host_id,
    payload.url                                        AS url,
    payload.dimensionId                                AS dimension_id,
    payload.mode                                       AS mode,
    payload.trigger                                    AS trigger,
    payload.outcome                                    AS outcome,
    payload.reason                                     AS reason,
    payload.statusCode                                 AS status_code,
    payload.renderMs                                   AS render_ms,
    payload.bytes                                      AS bytes,
    payload.attempt                                    AS attempt,
    payload.entryId                                    AS entry_id,
    parseDateTime64BestEffort(occurredAt, 3, 'UTC')    AS ts,
    id                                                 AS event_id
FROM render_recorded_events
WHERE type = 'RenderRecorded' AND version = 1;
