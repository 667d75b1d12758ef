-- Where the explorer projector is in each log partition (`<topic>:<partition>`):
-- the next offset to read, written right after the rows it covers. The
-- projector starts each partition from here (not from the consumer group's
-- committed offset), so it can gather several log batches into one large
-- insert, and an emptied or fresh ClickHouse rebuilds itself from the log.
CREATE TABLE IF NOT EXISTS explorer_projection_checkpoints
(
    stream      String                  COMMENT 'topic:partition of the event log',
    next_offset UInt64                  COMMENT 'next log offset to project',
    updated_at  DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(updated_at)
ORDER BY stream;
