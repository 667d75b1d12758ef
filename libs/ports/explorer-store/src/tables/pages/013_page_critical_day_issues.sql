-- SEO health over time (issue 43): each page's issue codes on each day, so
-- the SEO insight can count pages per issue code and severity as of the end
-- of every day (docs/seo-health.md), not only now.
--
-- A column of page_critical_days rather than a sibling table: its rows are
-- already the day's latest render of each page, from the same events with
-- the same rules (issuesOf), folded the same way (ReplacingMergeTree on
-- rendered_at) and kept as long (92 days); a second table would store and
-- write every key twice for one more column.
--
-- Brought to both a new database and one created before the column existed
-- on every boot, like 009_bot_request_fields.sql: `ADD COLUMN IF NOT
-- EXISTS`, nothing rewritten. Rows projected before it read `[]` (no codes
-- known): their days count the page without issues until the rows leave
-- with the TTL, or at once when the explorer store is rebuilt from the log.
ALTER TABLE page_critical_days
    ADD COLUMN IF NOT EXISTS issues Array(LowCardinality(String)) DEFAULT [] COMMENT 'page-level issue codes of that render (issuesOf), most severe first; [] on rows projected before the column existed';
