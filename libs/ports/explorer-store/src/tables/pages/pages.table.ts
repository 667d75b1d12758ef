/** Latest facts and page-level issue codes per host × URL × dimension (010_pages.sql): the `pages` explorer reads it. */
export const PAGES_TABLE = 'pages';

/** One `pages` row, as the projector writes it. */
export type PageRow = {
  readonly host_id: number;
  readonly url: string;
  readonly dimension_id: number;
  /** ClickHouse DateTime64(3) text or ISO 8601, UTC. */
  readonly rendered_at: string;
  readonly outcome: string;
  readonly event_id: string;
  readonly status_code: number;
  readonly bytes: number;
  readonly soft_404: boolean;
  readonly title: string;
  readonly title_length: number;
  readonly description: string;
  readonly lang: string;
  readonly h1_count: number;
  readonly first_h1: string;
  readonly canonical: string;
  readonly noindex_by: readonly string[];
  readonly nofollow_by: readonly string[];
  readonly hreflang_count: number;
  readonly json_ld_types: readonly string[];
  readonly json_ld_invalid: number;
  readonly microdata_types: readonly string[];
  readonly word_count: number;
  readonly internal_links: number;
  readonly external_links: number;
  readonly images_without_alt: number;
  readonly issues: readonly string[];
  readonly critical_issues: number;
};

/**
 * Per UTC day, each page's latest render's critical issue count and issue
 * codes (012_page_critical_days.sql, 013_page_critical_day_issues.sql): what
 * the `critical_pages_up` alert compares and the SEO insight's days count.
 */
export const PAGE_CRITICAL_DAYS_TABLE = 'page_critical_days';

/** One `page_critical_days` row, as the projector writes it. */
export type PageCriticalDayRow = {
  readonly host_id: number;
  /** YYYY-MM-DD, UTC. */
  readonly day: string;
  readonly url: string;
  readonly dimension_id: number;
  readonly rendered_at: string;
  readonly critical_issues: number;
  /** Page-level issue codes of that render, as in `pages`. */
  readonly issues: readonly string[];
};
