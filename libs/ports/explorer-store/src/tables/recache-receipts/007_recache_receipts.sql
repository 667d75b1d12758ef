-- Recache receipts: one row per URL × dimension a receipted RecacheRequested
-- queued (public and daemon recaches, sitemap chunks), projected from the
-- queue topic by the receipt projector. A receipt's state per entry is read
-- together with `render_outcomes` (the first terminal render at or after the
-- request) and the queue store's live claims (rendering): see
-- libs/apis/public-api/src/recache-receipts.
--
-- Exactly once as the explorer tables: insert deduplication tokens from log
-- positions, and ReplacingMergeTree keyed by receipt, entry and event (exact
-- reads use FINAL). A sitemap receipt spans several events; an entry named by
-- two of them keeps two rows, which the reads fold (earliest request).
CREATE TABLE IF NOT EXISTS recache_receipts
(
    receipt_id   String                  COMMENT 'receipt id answered by the recache call',
    host_id      UInt32                  COMMENT 'host of the queued entries (hosts[].host_id)',
    url          String                  COMMENT 'public page URL as queued',
    dimension_id UInt16                  COMMENT 'cache dimension queued',
    source       LowCardinality(String)  COMMENT 'daemon-api, public-api or sitemap',
    priority     LowCardinality(String)  COMMENT 'high or normal, as requested',
    requested_at DateTime64(3, 'UTC')    COMMENT 'when the request was recorded (RecacheRequested.occurredAt)',
    event_id     String                  COMMENT 'id of the RecacheRequested event (the queue entry id it set)'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(requested_at)
ORDER BY (receipt_id, url, dimension_id, event_id)
TTL toDateTime(requested_at) + INTERVAL 30 DAY
SETTINGS non_replicated_deduplication_window = 1000;

-- Queue purges (QueuePurged), so a receipt can tell an entry a purge removed
-- from one still waiting: without them a purged entry would read `queued`
-- forever. One row per purge, kept as long as the receipts it may concern.
CREATE TABLE IF NOT EXISTS recache_purges
(
    host_id    UInt32                         COMMENT 'host whose queues were purged',
    priorities Array(LowCardinality(String))  COMMENT 'priorities purged (high, normal, autorecache)',
    purged_at  DateTime64(3, 'UTC')           COMMENT 'when the purge was recorded (QueuePurged.occurredAt)',
    event_id   String                         COMMENT 'id of the QueuePurged event'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(purged_at)
ORDER BY (host_id, purged_at, event_id)
TTL toDateTime(purged_at) + INTERVAL 31 DAY
SETTINGS non_replicated_deduplication_window = 1000;
