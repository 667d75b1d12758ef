import { ISSUE_SEVERITIES, type IssueSeverity, PAGE_ISSUE_CODES, type PageIssueCode } from '@bpc/domain';

export type SeverityCounts = Readonly<Record<IssueSeverity, number>>;
/** Pages with at least one issue of each severity on a UTC day (`t`: epoch ms of its start). */
export type SeverityDay = { readonly t: number } & SeverityCounts;
/** Pages with each page-level issue code (every code but title_duplicate) on a UTC day. */
export type IssuesDay = { readonly t: number } & Readonly<Record<PageIssueCode, number>>;

/** How the pages with each issue changed on one day (`issueHistorySql`'s row, asked for PAGE_ISSUE_CODES): `codes` in that order. */
export interface IssueHistoryChange extends SeverityCounts {
  readonly t: number;
  readonly codes: readonly number[];
}

/**
 * The pages with each issue as of the end of each day of `days` (UTC day
 * starts, oldest first: every day the window touches), the changes summed
 * from the first day on, so a day without a change carries the day before.
 * A change before the first day counts from it.
 */
export function issuesAsOfEachDay(days: readonly number[], changes: readonly IssueHistoryChange[]): { readonly pagesWithIssuesByDay: SeverityDay[]; readonly issuesByDay: IssuesDay[] } {
  const inOrder = [...changes].sort((a, b) => a.t - b.t);
  const severities: Record<IssueSeverity, number> = { critical: 0, warning: 0, notice: 0 };
  const perCode = PAGE_ISSUE_CODES.map(() => 0);
  const pagesWithIssuesByDay: SeverityDay[] = [];
  const issuesByDay: IssuesDay[] = [];
  let next = 0;
  for (const t of days) {
    for (; next < inOrder.length && inOrder[next].t <= t; next += 1) {
      const change = inOrder[next];
      for (const severity of ISSUE_SEVERITIES) severities[severity] += Number(change[severity]);
      perCode.forEach((_, i) => (perCode[i] += Number(change.codes[i] ?? 0)));
    }
    pagesWithIssuesByDay.push({ t, ...severities });
    issuesByDay.push({ t, ...(Object.fromEntries(PAGE_ISSUE_CODES.map((code, i) => [code, perCode[i]])) as Record<PageIssueCode, number>) });
  }
  return { pagesWithIssuesByDay, issuesByDay };
}
