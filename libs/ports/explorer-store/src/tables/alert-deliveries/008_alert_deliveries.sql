-- Alert webhook delivery log: one row per try to POST an alert to a website's
-- webhook, projected from AlertDeliveryAttempted events (topic bpc.alerts.v1).
-- Read by GET /api/websites/{website}/alerts/deliveries.
--
-- Exactly once: insert deduplication tokens from log positions, and
-- ReplacingMergeTree keyed by (website, alert_id, attempt): a try recorded
-- twice (a replica taking over a website mid-try) is one row under FINAL.
CREATE TABLE IF NOT EXISTS alert_deliveries
(
    website      LowCardinality(String)  COMMENT 'website id',
    alert_id     String                  COMMENT 'stable alert id (X-BPC-Alert-Id)',
    type         LowCardinality(String)  COMMENT 'render_failures, page_errors, export_finished',
    attempt      UInt16                  COMMENT '1-based try',
    status       LowCardinality(String)  COMMENT 'delivered, retrying (another try is due), failed (no more tries)',
    http_status  Nullable(UInt16)        COMMENT 'receiver''s HTTP status; NULL when it did not answer',
    error        String                  COMMENT 'why the try failed; empty when delivered',
    ts           DateTime64(3, 'UTC')    COMMENT 'when the try ended',
    event_id     String                  COMMENT 'id of the AlertDeliveryAttempted event'
)
ENGINE = ReplacingMergeTree
ORDER BY (website, alert_id, attempt)
SETTINGS non_replicated_deduplication_window = 1000;
