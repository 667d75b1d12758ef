import type { AppConfig } from '@bpc/config';
import { criticalIssueCount, DEFAULT_ISSUE_THRESHOLDS, type IssueThresholds, issuesOf, type PageFacts } from '@bpc/domain';
import type { RenderRecorded } from '@bpc/events';
import { PAGE_CHANGE_EVENTS_TABLE, PAGE_CRITICAL_DAYS_TABLE, type PageChangeRow, type PageCriticalDayRow, type PageRow, PAGES_TABLE, SEVERITY_RANKS } from '@bpc/explorer-store';
import { push, type TableRows } from './table-rows';

/**
 * The page-level issue codes of a render's facts (`issuesOf` with the
 * website's thresholds): what needs the rest of the website (`title_duplicate`)
 * or its traffic (a noindex page bots request) is added by the `pages`
 * explorer at query time, so a row never goes stale when another page changes.
 */
const PAGE_ONLY_CONTEXT = { sameTitleUrls: 0, botRequests: 0, inSitemap: false } as const;

/**
 * Each host's issue thresholds, from its website's `seo` settings (a website
 * is one host; the defaults where none is set). Applied when a render is
 * projected: a change of threshold shows on a page at its next render, or
 * at once for every page when the projection is rebuilt.
 */
export function issueThresholdsByHost(config: Pick<AppConfig, 'websites'> | undefined): ReadonlyMap<number, IssueThresholds> {
  const byHost = new Map<number, IssueThresholds>();
  for (const website of config?.websites ?? []) {
    if (!website.seo || byHost.has(website.host_id)) continue;
    byHost.set(website.host_id, { titleMaxLength: website.seo.title_max_length, thinContentWords: website.seo.thin_content_words, imagesWithoutAlt: website.seo.images_without_alt });
  }
  return byHost;
}

/** The `pages` row of a render with facts (pure). */
export function pageRowOf(event: RenderRecorded, facts: PageFacts, thresholds: IssueThresholds = DEFAULT_ISSUE_THRESHOLDS): PageRow {
  const { hostId, url, dimensionId, outcome } = event.payload;
  const issues = issuesOf(facts, { url, ...PAGE_ONLY_CONTEXT }, thresholds);
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

/** The `page_critical_days` row of a render: the page's state on the render's UTC day (the day's latest render wins), its issue codes those of its `pages` row. */
export function criticalDayRowOf(page: PageRow): PageCriticalDayRow {
  const { host_id, url, dimension_id, rendered_at, critical_issues, issues } = page;
  return { host_id, day: rendered_at.slice(0, 10), url, dimension_id, rendered_at, critical_issues, issues };
}

/**
 * What a render adds to SEO health (pure): its `pages` row when it carries
 * facts and the day's state of the page (`page_critical_days`), one
 * `page_change_events` row per change (the table's view coalesces them per
 * day). Renders without facts add nothing.
 */
export function pageRows(event: RenderRecorded, into: TableRows, thresholds: ReadonlyMap<number, IssueThresholds> = new Map()): void {
  const { facts, changes } = event.payload;
  if (facts === undefined) return;
  const page = pageRowOf(event, facts, thresholds.get(event.payload.hostId));
  push(into, PAGES_TABLE, page);
  push(into, PAGE_CRITICAL_DAYS_TABLE, criticalDayRowOf(page));
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
