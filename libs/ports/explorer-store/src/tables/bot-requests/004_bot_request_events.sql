-- The explorer projector's intake for `BotRequestRecorded` events: it
-- inserts the events' JSON, as the log holds it when it can (one envelope per
-- line, JSONEachRow), into this Null table, and the view below writes their
-- rows into `bot_requests`: the table's one mapping. The engine parses each
-- event once; the projector neither parses nor re-serialises stored ones.
-- Only version 1 of the event is mapped here (the projector sends nothing
-- else this way; bot-request-events.int-spec.ts in libs/features/projections
-- pins the mapping). This is the shape first released:
-- 009_bot_request_fields.sql brings the payload and the view to the fields
-- added since, on new and existing databases alike.
CREATE TABLE IF NOT EXISTS bot_request_events
(
    type       String,
    version    UInt16,
    id         String,
    occurredAt String,
    key        String,
    payload    Tuple(
        websiteId     String,
        host          String,
        url           String,
        pageTitle     String,
        statusCode    UInt16,
        botName       String,
        userAgent     String,
        dimensionId   UInt16,
        dimensionName String,
        cacheStatus   String,
        serveTimeMs   UInt32,
        snapshotAgeS  Nullable(UInt32),
        bytes         UInt64,
        servedAt      String,
        requestId     String)
)
ENGINE = Null;

CREATE MATERIALIZED VIEW IF NOT EXISTS bot_request_events_mv TO bot_requests AS
SELECT
    payload.websiteId                                                                          AS website,
    payload.host                                                                               AS host,
    payload.url                                                                                AS url,
    payload.pageTitle                                                                          AS page_title,
    payload.statusCode                                                                         AS status_code,
    payload.botName                                                                            AS bot_name,
    payload.userAgent                                                                          AS user_agent,
    payload.dimensionId                                                                        AS dimension_id,
    payload.dimensionName                                                                      AS dimension_name,
    CAST(payload.cacheStatus AS Enum8('hit' = 1, 'miss' = 2, 'stale' = 3, 'bypass' = 4))      AS cache_status,
    payload.serveTimeMs                                                                        AS serve_time_ms,
    payload.snapshotAgeS                                                                       AS snapshot_age_s,
    payload.bytes                                                                              AS bytes,
    parseDateTime64BestEffort(payload.servedAt, 3, 'UTC')                                      AS ts,
    payload.requestId                                                                          AS request_id,
    id                                                                                         AS event_id
FROM bot_request_events
WHERE type = 'BotRequestRecorded' AND version = 1;
