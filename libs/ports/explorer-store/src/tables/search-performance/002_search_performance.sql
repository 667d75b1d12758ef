-- Daily search-engine performance, read by the `search-pages` and
-- `search-keywords` explorers. Two tables rather than one with an empty query
-- for page rows: search engines report per-page and per-query figures from
-- different aggregations (per-query impressions count a results page once even
-- when several of the site's pages appear on it), so summing one grain never
-- gives the other and mixing them in one table invites double counting.
--
-- Data is whole-day (`date`, UTC). CTR is derived in queries
-- (sum(clicks) / sum(impressions)), never stored; `position` is the day's
-- average position (1 = top), aggregated over days weighted by impressions:
-- sum(position * impressions) / sum(impressions).
--
-- A day is re-imported when the search engine revises it: ReplacingMergeTree
-- keeps the row with the latest imported_at per key, so exact reads use FINAL.
-- Inserts carry a deduplication token like every projection write.

CREATE TABLE IF NOT EXISTS search_page_daily
(
    website     LowCardinality(String),
    date        Date,
    url         String                  COMMENT 'page URL as reported by the search engine',
    clicks      UInt32,
    impressions UInt32,
    position    Float64                 COMMENT 'average position that day, 1 = top',
    imported_at DateTime64(3, 'UTC')    COMMENT 'import time: the newest import of a day wins'
)
ENGINE = ReplacingMergeTree(imported_at)
PARTITION BY toYYYYMM(date)
ORDER BY (website, date, url)
SETTINGS non_replicated_deduplication_window = 1000;

CREATE TABLE IF NOT EXISTS search_query_daily
(
    website     LowCardinality(String),
    date        Date,
    query       String                  COMMENT 'search query (keyword) as typed by users',
    clicks      UInt32,
    impressions UInt32,
    position    Float64                 COMMENT 'average position that day, 1 = top',
    imported_at DateTime64(3, 'UTC')    COMMENT 'import time: the newest import of a day wins'
)
ENGINE = ReplacingMergeTree(imported_at)
PARTITION BY toYYYYMM(date)
ORDER BY (website, date, query)
SETTINGS non_replicated_deduplication_window = 1000;

-- One row per imported day and grain: a re-import replaces the whole day, also
-- dropping keys the new import no longer lists. Queries keep only rows whose
-- imported_at is the day's latest import (a cheap semi-join on this small
-- table) instead of deleting older rows, which costs seconds per day in
-- ClickHouse and would stall the projector.
CREATE TABLE IF NOT EXISTS search_day_imports
(
    website     LowCardinality(String),
    grain       Enum8('page' = 1, 'query' = 2),
    date        Date,
    imported_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(imported_at)
ORDER BY (website, grain, date)
SETTINGS non_replicated_deduplication_window = 1000;
