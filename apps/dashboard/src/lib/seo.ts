import type { DiscoveryDocument, IssueSeverity, SeoInsightsResult, SeoIssueCount, Series } from '../api/types';
import { explorerSearchParams, type FilterState } from './explorer-state';

/** SEO health's periods: presets both its explorers accept (`pages` has whole days only, `page_changes` rolling ones too). */
export const SEO_PRESETS = ['7d', '30d', '90d'] as const;
export const SEO_DEFAULT_PERIOD = '30d';

export const SEVERITIES: readonly IssueSeverity[] = ['critical', 'warning', 'notice'];
export const SEVERITY_TEXT: Readonly<Record<IssueSeverity, string>> = { critical: 'Critical', warning: 'Warning', notice: 'Notice' };

const DAY_MS = 86_400_000;

/** The SEO page view of one URL (its facts, its changes), for the pages that show a URL. */
export function seoPagePath(website: string, url: string, period?: string): string {
  const params = new URLSearchParams({ url });
  if (period) params.set('period', period);
  return `/w/${encodeURIComponent(website)}/seo/page?${params.toString()}`;
}

/** The Data Explorer on one of SEO health's explorers with these filters. */
export function seoExplorerPath(website: string, explorer: 'pages' | 'page_changes', period: string, filters: FilterState[], sort?: { sort: string; sortDir: 'asc' | 'desc' }): string {
  return `/w/${encodeURIComponent(website)}/explorer?${explorerSearchParams({ explorer, period, filters, ...sort }).toString()}`;
}

/** The pages explorer's rows that have an issue, most requested first. */
export const pagesWithIssuePath = (website: string, period: string, code: string): string =>
  seoExplorerPath(website, 'pages', period, [{ field: 'issue', op: 'eq', val: code }], { sort: 'requests', sortDir: 'desc' });

/** What discovery says of an issue code: its severity and its one-line explanation. */
export interface IssueDescription {
  severity?: IssueSeverity;
  explanation: string;
}

/**
 * Each issue code's severity and explanation, as discovery's `issue` filter
 * of the `pages` explorer labels it (`code (severity): explanation`): the
 * API's own words, so the dashboard keeps no second copy of the catalog.
 */
export function issueCatalog(discovery: DiscoveryDocument | undefined): Map<string, IssueDescription> {
  const filter = discovery?.explorers.find((e) => e.key === 'pages')?.modes.flatMap((m) => m.filters).find((f) => f.field === 'issue');
  const catalog = new Map<string, IssueDescription>();
  for (const option of filter?.options ?? []) {
    const parts = /^[a-z0-9_]+ \(([a-z]+)\): (.+)$/.exec(option.label);
    const severity = SEVERITIES.find((s) => s === parts?.[1]);
    catalog.set(option.value, parts ? { severity, explanation: parts[2]! } : { explanation: option.label });
  }
  return catalog;
}

/** The issues pages have now, most severe first, then by pages affected; those no page has are left out. */
export function issuesPresent(issues: readonly SeoIssueCount[]): SeoIssueCount[] {
  return issues.filter((i) => i.pages > 0).sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || b.pages - a.pages);
}

/**
 * The changes per day as one series per severity over every UTC day of the
 * window (the API leaves days without changes out; the chart wants every
 * bucket, a zero where nothing changed).
 */
export function changesSeries(result: SeoInsightsResult): Series[] {
  const first = Math.floor(Date.parse(result.meta.window.start) / DAY_MS) * DAY_MS;
  const end = Date.parse(result.meta.window.end);
  const byDay = new Map(result.data.changesByDay.map((day) => [day.t, day]));
  const days: number[] = [];
  for (let t = first; t < end; t += DAY_MS) days.push(t);
  return SEVERITIES.map((severity) => ({
    key: severity,
    points: days.map((t) => ({ t: new Date(t).toISOString(), v: byDay.get(t)?.[severity] ?? 0 })),
  }));
}

/**
 * Pages with issues of each severity as of the end of each UTC day of the
 * window, one series per severity (the API answers every day, so no gap to
 * fill). Duplicate titles are not in it: the API cannot say them of a past day.
 */
export function pagesWithIssuesSeries(result: SeoInsightsResult): Series[] {
  return SEVERITIES.map((severity) => ({
    key: severity,
    points: result.data.pagesWithIssuesByDay.map((day) => ({ t: new Date(day.t).toISOString(), v: day[severity] })),
  }));
}

/** The first URL of `rows` that has each issue code (rows as the `pages` explorer answers them, `issues` comma separated). */
export function exampleUrls(rows: readonly Record<string, unknown>[]): Map<string, string> {
  const examples = new Map<string, string>();
  for (const row of rows) {
    for (const code of String(row.issues ?? '').split(',')) {
      const trimmed = code.trim();
      if (trimmed && !examples.has(trimmed) && typeof row.url === 'string') examples.set(trimmed, row.url);
    }
  }
  return examples;
}
