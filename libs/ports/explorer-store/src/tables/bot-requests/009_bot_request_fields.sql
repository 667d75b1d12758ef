-- Who read the page and how (issue 44): five fields BotRequestRecorded v1
-- gained, optional and additive, so events recorded before them still
-- project, with the defaults below (html, other, unknown, unknown, unknown).
--
-- This file brings both a new database and one created before the fields
-- existed to the same shape, on every boot (there is no bookkeeping table:
-- every statement here is idempotent):
-- - the columns are added with `ADD COLUMN IF NOT EXISTS` (old rows read the
--   default; nothing is rewritten);
-- - the intake's payload gains the fields with `MODIFY COLUMN` (a Null table
--   holds no data; the same type again changes nothing);
-- - the view's mapping is replaced in place with `MODIFY QUERY`, so inserts
--   never meet a moment without a view (dropping and re-creating it would
--   lose what arrives in between: the Null table keeps nothing).
-- 001_bot_requests.sql and 004_bot_request_events.sql keep the shape first
-- released; the mapping in force is the one below.
--
-- The values are LowCardinality strings rather than enums: a value a later
-- edge writes (a new category, a new format) is stored as it is instead of
-- failing the insert and holding up the projection for good.
ALTER TABLE bot_requests
    ADD COLUMN IF NOT EXISTS format         LowCardinality(String) DEFAULT 'html'    COMMENT 'what the bot was answered in: html or markdown',
    ADD COLUMN IF NOT EXISTS bot_category   LowCardinality(String) DEFAULT 'other'   COMMENT 'why this kind of bot reads pages: search, ai_search, ai_assistant, ai_training, social, seo_tool, monitoring, other',
    ADD COLUMN IF NOT EXISTS bot_operator   LowCardinality(String) DEFAULT 'unknown' COMMENT 'company that runs the bot, e.g. Google, OpenAI; unknown when no source names one',
    ADD COLUMN IF NOT EXISTS verified       LowCardinality(String) DEFAULT 'unknown' COMMENT 'whether the bot is who its user agent claims: yes, no, unknown',
    ADD COLUMN IF NOT EXISTS robots_allowed LowCardinality(String) DEFAULT 'unknown' COMMENT 'whether the site''s robots.txt allowed this bot this URL: yes, no, unknown';

-- An event without a field reads it as '' (a named tuple's missing element
-- takes its type's default): the view maps '' to the column's default.
ALTER TABLE bot_request_events
    MODIFY COLUMN payload Tuple(
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
        requestId     String,
        format        String,
        botCategory   String,
        botOperator   String,
        verified      String,
        robotsAllowed String);

ALTER TABLE bot_request_events_mv MODIFY QUERY
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
    id                                                                                         AS event_id,
    if(payload.format = '', 'html', payload.format)                                            AS format,
    if(payload.botCategory = '', 'other', payload.botCategory)                                 AS bot_category,
    if(payload.botOperator = '', 'unknown', payload.botOperator)                               AS bot_operator,
    if(payload.verified = '', 'unknown', payload.verified)                                     AS verified,
    if(payload.robotsAllowed = '', 'unknown', payload.robotsAllowed)                           AS robots_allowed
FROM bot_request_events
WHERE type = 'BotRequestRecorded' AND version = 1;
