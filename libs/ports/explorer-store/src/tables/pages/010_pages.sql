-- SEO health: one row per host × URL × dimension with the latest facts of
-- the page (docs/seo-health.md), projected from RenderRecorded events that
-- carry facts (topic bpc.renders.v1), whatever their outcome: a render kept
-- by a last-good rule says what the origin serves now. Read by the `pages`
-- explorer, which adds what needs the whole website or the period at query
-- time (title_duplicate, bot requests, search performance).
--
-- `issues` holds the page-level issue codes the domain's `issuesOf` found
-- when the row was projected, most severe first; `critical_issues` counts
-- the critical ones. Exactly once: ReplacingMergeTree keeps the latest
-- render per key (`rendered_at`), so a row projected twice folds away (exact
-- reads use FINAL).
CREATE TABLE IF NOT EXISTS pages
(
    host_id            UInt32                      COMMENT 'host of the page (hosts[].host_id); a website is one host',
    url                String                      COMMENT 'public page URL as queued',
    dimension_id       UInt16                      COMMENT 'cache dimension rendered',
    rendered_at        DateTime64(3, 'UTC')        COMMENT 'when the render that produced these facts ended',
    outcome            LowCardinality(String)      COMMENT 'that render''s outcome (stored, kept_*, …)',
    event_id           String                      COMMENT 'id of that RenderRecorded event',
    status_code        UInt16,
    bytes              UInt64,
    soft_404           Bool,
    title              String                      COMMENT 'empty when the page has none',
    title_length       UInt32                      COMMENT 'before the title was cut to 512 characters',
    description        String,
    lang               String,
    h1_count           UInt32,
    first_h1           String,
    canonical          String                      COMMENT 'absolute; empty when none',
    noindex_by         Array(LowCardinality(String)) COMMENT 'robots, googlebot, bingbot: who says noindex',
    nofollow_by        Array(LowCardinality(String)),
    hreflang_count     UInt32,
    json_ld_types      Array(String),
    json_ld_invalid    UInt32,
    microdata_types    Array(String),
    word_count         UInt32,
    internal_links     UInt32,
    external_links     UInt32,
    images_without_alt UInt32,
    issues             Array(LowCardinality(String)) COMMENT 'page-level issue codes (issuesOf), most severe first',
    critical_issues    UInt8,
    INDEX title_idx title TYPE bloom_filter(0.01) GRANULARITY 4
)
ENGINE = ReplacingMergeTree(rendered_at)
ORDER BY (host_id, url, dimension_id);
