import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { type Clock, ISSUE_CATALOG, ISSUE_CODES, ISSUE_SEVERITIES, type IssueCode, type IssueSeverity, PAGE_ISSUE_CODES } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore, PAGE_CHANGES_MERGED_SQL } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { findExplorer, PAGE_CHANGES_KEY } from '../catalog/explorer-catalog';
import type { WindowView } from '../insights/insights.query';
import { bucketStarts } from '../insights/timeseries-series';
import { windowView } from '../insights/window-view';
import { resolvePeriod } from '../periods/periods';
import { rendersCatalogOf } from '../renders/renders-catalog';
import { runAdmittedStatement } from '../run-explorer-query/run-admitted-statement';
import { type IssueHistoryChange, type IssuesDay, issuesAsOfEachDay, type SeverityCounts, type SeverityDay } from './issue-history';
import { daysTouchedEnd, issueHistorySql, pagesParams, pagesSource } from './pages-sql';

/** SEO health at a glance: pages per issue code and severity now and as of each day of a period, changes per severity over it (docs/seo-health.md). */
export class GetSeoInsights {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    readonly body: { readonly period?: string },
    /** When the request arrived (ms on the app's clock): the explorer's time budget counts from here. */
    readonly receivedAtMs: number,
  ) {}
}

export interface SeoInsightsResult {
  readonly data: {
    /** Every issue code with its severity and the pages (URL × dimension) that have it now; codes no page has included, with 0. */
    readonly issues: readonly { readonly code: IssueCode; readonly severity: IssueSeverity; readonly pages: number }[];
    /** Pages (URL × dimension) with at least one issue of each severity, now. */
    readonly pagesWithIssues: SeverityCounts;
    /** Pages known (rendered with facts). */
    readonly pages: number;
    /** Changes (coalesced rows: page × dimension × field × day) whose latest change falls in the window, per severity. */
    readonly changes: SeverityCounts;
    /** The same per UTC day (`t`: epoch ms of the day's start), days without changes left out. */
    readonly changesByDay: readonly SeverityDay[];
    /**
     * Every UTC day the window touches, oldest first: pages with at least one
     * issue of each severity as of the end of that day (today: now), each page
     * with its latest render's issues at or before it. `title_duplicate` is
     * left out (no past day can say it), so on today `pagesWithIssues` less the
     * pages whose only warning is a duplicate title.
     */
    readonly pagesWithIssuesByDay: readonly SeverityDay[];
    /** The same days: pages with each issue code but `title_duplicate` (on today, `issues`' pages). */
    readonly issuesByDay: readonly IssuesDay[];
  };
  readonly meta: { readonly period: string; readonly window: WindowView };
}

/** `page_changes`' default period: the insights and the explorer cover the same window unless told otherwise. */
const DEFAULT_PERIOD = '7d';

const perSeverity = (row: Record<string, unknown>): SeverityCounts => ({ critical: Number(row.critical ?? 0), warning: Number(row.warning ?? 0), notice: Number(row.notice ?? 0) });

/**
 * Counts over the website's host: issues from `pages` as the `pages`
 * explorer reads them (title_duplicate included), changes from
 * `page_changes` within the period (the `page_changes` explorer's rules:
 * rolling presets, 24h allowed), and the pages with each issue as of the
 * end of each day of the period from each page's day rows
 * (`page_critical_days`) and latest facts (`issueHistorySql`).
 */
@QueryHandler(GetSeoInsights)
export class GetSeoInsightsHandler implements IQueryHandler<GetSeoInsights, SeoInsightsResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, body, receivedAtMs }: GetSeoInsights): Promise<SeoInsightsResult> {
    const period = body.period ?? DEFAULT_PERIOD;
    const window = resolvePeriod(period, findExplorer(PAGE_CHANGES_KEY)!.periods, this.clock.now(), 'period');
    const { hostId, dimensions } = rendersCatalogOf(this.config, websiteId);
    const params = { ...pagesParams({ websiteId, hostId, dimensions }, window), endDate: daysTouchedEnd(window.end), ...severityCodes(), codes: PAGE_ISSUE_CODES };
    const runner = { store: this.store, admission: this.admission, config: this.config };
    const statement = { filters: [], accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms };
    const severityCounts = ISSUE_SEVERITIES.map((severity) => `countIf(hasAny(p_issues, {${severity}Codes:Array(String)})) AS ${severity}`).join(', ');
    const changeCounts = ISSUE_SEVERITIES.map((severity) => `countIf(severity = '${severity}') AS ${severity}`).join(', ');
    const [codes, [pageCounts = {}], days, history] = await Promise.all([
      runAdmittedStatement<{ code: string; pages: number }>(runner, statement, `SELECT code, count() AS pages FROM (${pagesSource()}) ARRAY JOIN p_issues AS code GROUP BY code`, params),
      runAdmittedStatement<Record<string, unknown>>(runner, statement, `SELECT count() AS pages, ${severityCounts} FROM (${pagesSource()})`, params),
      runAdmittedStatement<Record<string, unknown>>(
        runner,
        statement,
        `SELECT toUnixTimestamp(toStartOfDay(changed_at)) * 1000 AS t, ${changeCounts} FROM (${PAGE_CHANGES_MERGED_SQL}) ` +
          'WHERE changed_at >= {start:DateTime64(3)} AND changed_at < {end:DateTime64(3)} GROUP BY t ORDER BY t',
        params,
      ),
      runAdmittedStatement<IssueHistoryChange>(runner, statement, issueHistorySql(), params),
    ]);
    const byCode = new Map(codes.map((row) => [row.code, Number(row.pages)]));
    const changesByDay = days.map((row) => ({ t: Number(row.t), ...perSeverity(row) }));
    const changesOfIssues = history.map((row) => ({ ...row, t: Number(row.t), codes: row.codes.map(Number) }));
    return {
      data: {
        issues: ISSUE_CODES.map((code) => ({ code, severity: ISSUE_CATALOG[code].severity, pages: byCode.get(code) ?? 0 })),
        pagesWithIssues: perSeverity(pageCounts),
        pages: Number(pageCounts.pages ?? 0),
        changes: { critical: sum(changesByDay, 'critical'), warning: sum(changesByDay, 'warning'), notice: sum(changesByDay, 'notice') },
        changesByDay,
        ...issuesAsOfEachDay(bucketStarts(window, 'day'), changesOfIssues),
      },
      meta: { period, window: windowView(window) },
    };
  }
}

/** The issue codes of each severity, bound as `{criticalCodes}` …: the catalog decides, the SQL only tests membership. */
function severityCodes(): Record<string, string[]> {
  return Object.fromEntries(ISSUE_SEVERITIES.map((severity) => [`${severity}Codes`, ISSUE_CODES.filter((code) => ISSUE_CATALOG[code].severity === severity)]));
}

const sum = (rows: readonly SeverityCounts[], severity: IssueSeverity): number => rows.reduce((total, row) => total + row[severity], 0);
