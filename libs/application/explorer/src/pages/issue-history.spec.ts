import { PAGE_ISSUE_CODES, type PageIssueCode } from '@bpc/domain';
import { type IssueHistoryChange, issuesAsOfEachDay } from './issue-history';

const DAY = 86_400_000;
const D0 = Date.UTC(2026, 10, 1);
const days = [D0, D0 + DAY, D0 + 2 * DAY, D0 + 3 * DAY];
const change = (t: number, severities: Partial<Record<'critical' | 'warning' | 'notice', number>>, codes: Partial<Record<PageIssueCode, number>> = {}): IssueHistoryChange => ({
  t,
  critical: 0,
  warning: 0,
  notice: 0,
  ...severities,
  codes: PAGE_ISSUE_CODES.map((code) => codes[code] ?? 0),
});

describe('pages with each issue as of the end of each day', () => {
  it('sums the changes from the first day on, carrying a day without change from the day before, in any order the rows come', () => {
    const { pagesWithIssuesByDay, issuesByDay } = issuesAsOfEachDay(days, [
      change(D0 + 2 * DAY, { critical: -1 }, { noindex: -1 }),
      change(D0, { critical: 2, warning: 1 }, { noindex: 1, status_4xx: 1, thin_content: 1 }),
      change(D0 + 3 * DAY, { notice: 1 }, { h1_multiple: 1 }),
    ]);
    expect(pagesWithIssuesByDay).toEqual([
      { t: D0, critical: 2, warning: 1, notice: 0 },
      { t: D0 + DAY, critical: 2, warning: 1, notice: 0 },
      { t: D0 + 2 * DAY, critical: 1, warning: 1, notice: 0 },
      { t: D0 + 3 * DAY, critical: 1, warning: 1, notice: 1 },
    ]);
    expect(issuesByDay.map((day) => [day.noindex, day.status_4xx, day.thin_content, day.h1_multiple])).toEqual([[1, 1, 1, 0], [1, 1, 1, 0], [0, 1, 1, 0], [0, 1, 1, 1]]);
    expect(Object.keys(issuesByDay[0])).toEqual(['t', ...PAGE_ISSUE_CODES]);
  });

  it('counts a change before the first day from it, and every day without changes as none', () => {
    expect(issuesAsOfEachDay(days.slice(1), [change(D0, { warning: 3 })]).pagesWithIssuesByDay[0]).toEqual({ t: D0 + DAY, critical: 0, warning: 3, notice: 0 });
    expect(issuesAsOfEachDay(days, []).pagesWithIssuesByDay.map((day) => day.critical + day.warning + day.notice)).toEqual([0, 0, 0, 0]);
  });
});
