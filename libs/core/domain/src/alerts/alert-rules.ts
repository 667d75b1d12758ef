import { sha256Hex } from '../shared/secret-hash';

/**
 * Alert rules of a website's webhook (docs/alerts.md): pure decisions from
 * figures to alerts. An alert's id is derived from what it is about and the
 * window it fired in, never from when it was evaluated, so a rule firing
 * again in the same window (a later evaluation, another replica, a replay)
 * names the same alert, and the deliverer sends it once.
 */

export const ALERT_TYPES = ['render_failures', 'page_errors', 'export_finished', 'noindex_appeared', 'critical_pages_up'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** What an alert says; the webhook body is this, as JSON. */
export interface Alert {
  readonly id: string;
  readonly type: AlertType;
  readonly website: string;
  /** ISO 8601 UTC: the end of the window that fired, or when the export finished. */
  readonly occurredAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface WindowRule {
  readonly windowMinutes: number;
}

/**
 * The window an evaluation at `now` falls in, aligned on the clock (UTC
 * epoch multiples of its length): the alert of a window is raised once
 * whatever the evaluation interval.
 */
export function alignedWindow(now: number, windowMinutes: number): { readonly start: number; readonly end: number } {
  const length = windowMinutes * 60_000;
  const start = Math.floor(now / length) * length;
  return { start, end: start + length };
}

/**
 * What an alert about the last window starts with: its id names the rule,
 * the website and the aligned window, so the window's alert is one alert.
 */
function windowAlertOf(type: AlertType, website: string, rule: WindowRule, now: number): Pick<Alert, 'id' | 'type' | 'website' | 'occurredAt'> {
  const window = alignedWindow(now, rule.windowMinutes);
  return { id: `${type}:${website}:${new Date(window.start).toISOString()}`, type, website, occurredAt: new Date(now).toISOString() };
}

/** The last window as an alert's body says it. */
function lastWindowOf(rule: WindowRule, now: number): { readonly windowMinutes: number; readonly from: string; readonly to: string } {
  return { windowMinutes: rule.windowMinutes, from: new Date(now - rule.windowMinutes * 60_000).toISOString(), to: new Date(now).toISOString() };
}

/** Render failures (outcomes retry_scheduled, gave_up, failed) of the website's host over the last window. */
export interface RenderFailureFigures {
  readonly failures: number;
  /** The most frequent failure reasons, most frequent first. */
  readonly topReasons: readonly { readonly reason: string; readonly renders: number }[];
}

export interface RenderFailureRule extends WindowRule {
  readonly threshold: number;
}

/** One alert when the failures of the last `windowMinutes` reach the threshold; at most one per aligned window. */
export function decideRenderFailureAlert(website: string, rule: RenderFailureRule, figures: RenderFailureFigures, now: number): Alert | undefined {
  if (figures.failures < rule.threshold) return undefined;
  return {
    ...windowAlertOf('render_failures', website, rule, now),
    data: { failures: figures.failures, threshold: rule.threshold, ...lastWindowOf(rule, now), topReasons: figures.topReasons },
  };
}

/**
 * One page's bot requests: in the window before (`before*`, the
 * `windowMinutes` before the last window) and in the last window (`recent*`).
 * Errors are answers with status 400 or more.
 */
export interface PageRequestFigures {
  readonly url: string;
  readonly beforeRequests: number;
  readonly beforeErrors: number;
  readonly recentRequests: number;
  readonly recentErrors: number;
  /** Status of the last answer in the last window (0 when none). */
  readonly lastStatus: number;
}

export interface PageErrorRule extends WindowRule {
  readonly minRequests: number;
}

/** Page alerts of one evaluation at most: a site-wide outage is one incident, not thousands of webhooks (the alert says how many more pages there were). */
export const MAX_PAGE_ALERTS = 20;

/**
 * A page bots request often starts answering errors: in the window before it
 * had at least `minRequests` bot requests, mostly answered below 400 (errors
 * under half), and in the last window its latest answer is 4xx/5xx. One
 * alert per page per aligned window; the most requested pages first.
 */
export function decidePageErrorAlerts(website: string, rule: PageErrorRule, pages: readonly PageRequestFigures[], now: number): Alert[] {
  const window = alignedWindow(now, rule.windowMinutes);
  const turned = pages
    .filter((p) => p.beforeRequests >= rule.minRequests && p.beforeErrors * 2 < p.beforeRequests && p.recentErrors > 0 && p.lastStatus >= 400)
    .sort((a, b) => b.beforeRequests - a.beforeRequests || (a.url < b.url ? -1 : 1));
  return turned.slice(0, MAX_PAGE_ALERTS).map((page) => ({
    id: `page_errors:${website}:${sha256Hex(page.url).slice(0, 16)}:${new Date(window.start).toISOString()}`,
    type: 'page_errors',
    website,
    occurredAt: new Date(now).toISOString(),
    data: {
      url: page.url,
      status: page.lastStatus,
      requestsBefore: page.beforeRequests,
      requests: page.recentRequests,
      errors: page.recentErrors,
      minRequests: rule.minRequests,
      windowMinutes: rule.windowMinutes,
      otherPages: Math.max(0, turned.length - MAX_PAGE_ALERTS),
    },
  }));
}

/** Pages of the website's host on which `noindex` appeared over the last window (their latest change to `noindex` says `true`). */
export interface NoindexAppearedFigures {
  readonly pages: number;
  /** A few of them (URLs), for the alert body. */
  readonly examples: readonly string[];
}

export interface NoindexAppearedRule extends WindowRule {
  readonly minPages: number;
}

/**
 * One alert when `noindex` appeared on at least `minPages` pages of the
 * website within the last `windowMinutes` (a deploy that de-indexes a site
 * section): at most one per aligned window.
 */
export function decideNoindexAppearedAlert(website: string, rule: NoindexAppearedRule, figures: NoindexAppearedFigures, now: number): Alert | undefined {
  if (figures.pages < rule.minPages) return undefined;
  return {
    ...windowAlertOf('noindex_appeared', website, rule, now),
    data: { pages: figures.pages, minPages: rule.minPages, ...lastWindowOf(rule, now), examples: figures.examples },
  };
}

/**
 * Pages (URL × dimension) of the website's host whose latest render of a UTC
 * day found at least one critical issue, today so far and yesterday, with the
 * pages rendered on each day (what the counts are out of).
 */
export interface CriticalPagesFigures {
  readonly today: number;
  readonly yesterday: number;
  readonly renderedToday: number;
  readonly renderedYesterday: number;
  /** A few of today's (URLs), for the alert body. */
  readonly examples: readonly string[];
}

export interface CriticalPagesUpRule {
  /** Today's pages with critical issues must be at least this many percent above yesterday's. */
  readonly increasePercent: number;
  /** And at least this many: a rise from 1 page to 2 is no incident. */
  readonly minPages: number;
}

const DAY_MS = 86_400_000;

/**
 * One alert a day when today's pages with critical issues (so far) are at
 * least `increasePercent` % above yesterday's, and at least `minPages`
 * (yesterday's none is any rise). Its id is the day's, so it fires at most
 * once a day, as soon as today's count has risen enough.
 */
export function decideCriticalPagesUpAlert(website: string, rule: CriticalPagesUpRule, figures: CriticalPagesFigures, now: number): Alert | undefined {
  if (figures.today < rule.minPages || figures.today * 100 < figures.yesterday * (100 + rule.increasePercent)) return undefined;
  const day = new Date(Math.floor(now / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  return {
    id: `critical_pages_up:${website}:${day}`,
    type: 'critical_pages_up',
    website,
    occurredAt: new Date(now).toISOString(),
    data: {
      day,
      pages: figures.today,
      yesterday: figures.yesterday,
      increasePercent: figures.yesterday === 0 ? null : Math.round(((figures.today - figures.yesterday) * 100) / figures.yesterday),
      renderedToday: figures.renderedToday,
      renderedYesterday: figures.renderedYesterday,
      minIncreasePercent: rule.increasePercent,
      minPages: rule.minPages,
      examples: figures.examples,
    },
  };
}

/** How an export ended, as its events tell. */
export interface FinishedExport {
  readonly exportId: number;
  readonly website: string;
  readonly explorerKey: string;
  readonly filename: string;
  readonly status: 'completed' | 'failed';
  readonly finishedAt: string;
  readonly rowCount?: number;
  readonly sizeBytes?: number;
  readonly error?: string;
}

/** One alert per export (its id is the export's): a completion read twice is the same alert. */
export function decideExportFinishedAlert(finished: FinishedExport): Alert {
  const { website, exportId, explorerKey, filename, status, rowCount, sizeBytes, error } = finished;
  return {
    id: `export_finished:${website}:${exportId}`,
    type: 'export_finished',
    website,
    occurredAt: finished.finishedAt,
    data: { exportId, explorer: explorerKey, filename, status, ...(rowCount !== undefined && { rowCount }), ...(sizeBytes !== undefined && { sizeBytes }), ...(error !== undefined && { error }) },
  };
}
