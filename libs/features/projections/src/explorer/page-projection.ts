import { criticalIssueCount, issuesOf, type PageFacts } from '@bpc/domain';
import type { RenderRecorded } from '@bpc/events';
import { PAGE_CHANGE_EVENTS_TABLE, type PageChangeRow, type PageRow, PAGES_TABLE, SEVERITY_RANKS } from '@bpc/explorer-store';
import { push, type TableRows } from './table-rows';

/**
 * The page-level issue codes of a render's facts (`issuesOf` with the
 * default thresholds): what needs the rest of the website (`title_duplicate`)
 * or its traffic (a noindex page bots request) is added by the `pages`
 * explorer at query time, so a row never goes stale when another page changes.
 */
const PAGE_ONLY_CONTEXT = { sameTitleUrls: 0, botRequests: 0, inSitemap: false } as const;

/** The `pages` row of a render with facts (pure). */
export function pageRowOf(event: RenderRecorded, facts: PageFacts): PageRow {
  const { hostId, url, dimensionId, outcome } = event.payload;
  const issues = issuesOf(facts, { url, ...PAGE_ONLY_CONTEXT });
  return {
    host_id: hostId,
    url,
    dimension_id: dimensionId,
    rendered_at: event.occurredAt,
    outcome,
    event_id: event.id,
    status_code: facts.statusCode,
    bytes: facts.bytes,
    soft_404: facts.soft404,
    title: facts.title ?? '',
    title_length: facts.titleLength,
    description: facts.description ?? '',
    lang: facts.lang ?? '',
    h1_count: facts.h1Count,
    first_h1: facts.firstH1 ?? '',
    canonical: facts.canonical ?? '',
    noindex_by: facts.noindexBy,
    nofollow_by: facts.nofollowBy,
    hreflang_count: facts.hreflangCount,
    json_ld_types: facts.jsonLdTypes,
    json_ld_invalid: facts.jsonLdInvalid,
    microdata_types: facts.microdataTypes,
    word_count: facts.wordCount,
    internal_links: facts.internalLinks,
    external_links: facts.externalLinks,
    images_without_alt: facts.imagesWithoutAlt,
    issues: issues.map((found) => found.code),
    critical_issues: criticalIssueCount(issues),
  };
}

/**
 * What a render adds to SEO health (pure): its `pages` row when it carries
 * facts, one `page_change_events` row per change (the table's view coalesces
 * them per day). Renders without facts add nothing.
 */
export function pageRows(event: RenderRecorded, into: TableRows): void {
  const { facts, changes } = event.payload;
  if (facts === undefined) return;
  push(into, PAGES_TABLE, pageRowOf(event, facts));
  for (const change of changes ?? []) {
    const row: PageChangeRow = {
      host_id: event.payload.hostId,
      url: event.payload.url,
      dimension_id: event.payload.dimensionId,
      field: change.field,
      before: change.before,
      after: change.after,
      severity_rank: SEVERITY_RANKS[change.severity],
      changed_at: event.occurredAt,
      event_id: event.id,
    };
    push(into, PAGE_CHANGE_EVENTS_TABLE, row);
  }
}
