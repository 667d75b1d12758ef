import { type Alert, decideNoindexAppearedAlert, decideRenderFailureAlert, type DeliveryAnswer, deliveryStatus, FIRST_TRY_WITHIN_MS, nextAttemptAt, type NoindexAppearedRule, type RenderFailureRule } from '@bpc/domain';
import { type AlertEvent, newAlertDeliveryAttempted, newAlertRaised, type RenderRecorded } from '@bpc/events';
import { FAILED_OUTCOMES } from '../renders/renders-catalog';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Reasons an alert body lists (the evaluator's `topReasons`). */
const TOP_REASONS = 5;
/** The deliverer looks for due alerts every second; a POST to the receiver takes a fraction of one. */
const FIRST_TRY_AFTER_MS = 1_200;
const POST_MS = 180;

/**
 * The webhook rules of the demo's alert history. The demo website has no
 * webhook (deploy/config/demo.yaml): its alerts are what one with these
 * rules would have been sent, so the Alerts page has a story to show.
 */
export const DEMO_ALERT_RULES: { readonly renderFailures: RenderFailureRule; readonly noindexAppeared: NoindexAppearedRule } = {
  renderFailures: { threshold: 20, windowMinutes: 15 },
  noindexAppeared: { minPages: 1, windowMinutes: 60 },
};

/** What the window rules read of a render: a failure and its reason, or `noindex` changing (to `after`). */
export type AlertInput =
  | { readonly kind: 'failure'; readonly at: number; readonly reason: string }
  | { readonly kind: 'noindex'; readonly at: number; readonly url: string; readonly dimensionId: number; readonly after: string };

/** The renders' facts the rules read (a few per day: kept instead of the renders). */
export function alertInputsOf(renders: readonly RenderRecorded[]): AlertInput[] {
  return renders.flatMap((render): AlertInput[] => {
    const at = Date.parse(render.occurredAt);
    const { outcome, reason, url, dimensionId, changes } = render.payload;
    const failure: AlertInput[] = FAILED_OUTCOMES.includes(outcome) ? [{ kind: 'failure', at, reason }] : [];
    const noindex = (changes ?? []).filter((c) => c.field === 'noindex').map((c): AlertInput => ({ kind: 'noindex', at, url, dimensionId, after: c.after }));
    return [...failure, ...noindex];
  });
}

/**
 * The alerts the evaluator would have raised over the demo's renders
 * (`inputs`, in time order) with `DEMO_ALERT_RULES`, evaluating at every
 * whole minute from `fromMs` to `nowMs` as the projector does once a minute:
 * the domain's rules decide, on the figures its queries would have read
 * (failures of the last window with their most frequent reasons; URLs whose
 * latest `noindex` change of the day, made to `true`, falls in the last
 * window). One alert per aligned window, as the alert ids say. Only alerts
 * raised more than `FIRST_TRY_WITHIN_MS` before now are kept: one the
 * deliverer could still try for the first time is never written.
 */
export function demoAlerts(inputs: readonly AlertInput[], { websiteId, fromMs, nowMs }: { readonly websiteId: string; readonly fromMs: number; readonly nowMs: number }): Alert[] {
  const raised = new Map<string, Alert>();
  const raise = (alert: Alert | undefined) => {
    if (alert && !raised.has(alert.id) && Date.parse(alert.occurredAt) <= nowMs - FIRST_TRY_WITHIN_MS) raised.set(alert.id, alert);
  };
  const failures = inputs.filter((i) => i.kind === 'failure').sort((a, b) => a.at - b.at);
  const rule = DEMO_ALERT_RULES.renderFailures;
  let from = 0;
  let to = 0;
  for (let minute = Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS; minute <= nowMs; minute += MINUTE_MS) {
    while (to < failures.length && failures[to]!.at < minute) to += 1;
    while (from < to && failures[from]!.at < minute - rule.windowMinutes * MINUTE_MS) from += 1;
    if (to - from >= rule.threshold) raise(decideRenderFailureAlert(websiteId, rule, { failures: to - from, topReasons: topReasons(failures.slice(from, to)) }, minute));
  }
  const noindex = inputs.filter((i) => i.kind === 'noindex');
  const window = DEMO_ALERT_RULES.noindexAppeared.windowMinutes * MINUTE_MS;
  const minutes = new Set(noindex.filter((c) => c.after === 'true').flatMap((c) => Array.from({ length: window / MINUTE_MS }, (_, i) => (Math.floor(c.at / MINUTE_MS) + 1 + i) * MINUTE_MS)));
  for (const minute of [...minutes].sort((a, b) => a - b)) {
    if (minute > nowMs) break;
    raise(decideNoindexAppearedAlert(websiteId, DEMO_ALERT_RULES.noindexAppeared, noindexFigures(noindex, minute, window), minute));
  }
  return [...raised.values()].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || (a.id < b.id ? -1 : 1));
}

/** The failures per reason, the most frequent first (then by reason), as the evaluator's query orders them. */
function topReasons(failures: readonly { readonly reason: string }[]): { reason: string; renders: number }[] {
  const counts = new Map<string, number>();
  for (const { reason } of failures) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts]
    .map(([reason, renders]) => ({ reason, renders }))
    .sort((a, b) => b.renders - a.renders || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0))
    .slice(0, TOP_REASONS);
}

/** URLs whose latest `noindex` change of its day (per URL and dimension, recorded before `now`) turned it on within the window. */
function noindexFigures(changes: readonly Extract<AlertInput, { kind: 'noindex' }>[], now: number, window: number): { pages: number; examples: string[] } {
  const latest = new Map<string, Extract<AlertInput, { kind: 'noindex' }>>();
  for (const change of changes) {
    if (change.at >= now) continue;
    const key = `${change.url}|${change.dimensionId}|${Math.floor(change.at / DAY_MS)}`;
    if ((latest.get(key)?.at ?? -1) <= change.at) latest.set(key, change);
  }
  const urls = [...new Set([...latest.values()].filter((c) => c.after === 'true' && c.at >= now - window).map((c) => c.url))].sort();
  return { pages: urls.length, examples: urls.slice(0, 5) };
}

/**
 * Each alert raised, then its tries, as the deliverer records them: sent on
 * its first tick and delivered (200), except that the receiver answered the
 * first `noindex_appeared` alert's first try 503, so it was tried again two
 * minutes later (the delivery rules: domain alert-delivery) and delivered.
 * All of them are finished: a deliverer reading the topic has nothing left
 * to send.
 */
export function demoAlertEvents(alerts: readonly Alert[]): AlertEvent[] {
  const retried = alerts.find((a) => a.type === 'noindex_appeared');
  return alerts.flatMap((alert): AlertEvent[] => {
    const raisedAt = Date.parse(alert.occurredAt);
    const events: AlertEvent[] = [newAlertRaised({ alertId: alert.id, type: alert.type, website: alert.website, alertOccurredAt: alert.occurredAt, data: alert.data }, raisedAt)];
    const answers: DeliveryAnswer[] = alert === retried ? [{ httpStatus: 503 }, { httpStatus: 200 }] : [{ httpStatus: 200 }];
    let startedAt = raisedAt + FIRST_TRY_AFTER_MS;
    for (const [i, answer] of answers.entries()) {
      const attempt = i + 1;
      const endedAt = startedAt + POST_MS;
      const status = deliveryStatus(answer, attempt);
      const next = nextAttemptAt(status, attempt, endedAt);
      const httpStatus = 'httpStatus' in answer ? answer.httpStatus : null;
      events.push(
        newAlertDeliveryAttempted(
          { alertId: alert.id, type: alert.type, website: alert.website, attempt, status, httpStatus, error: status === 'delivered' ? '' : `HTTP ${httpStatus}`, ...(next !== undefined && { nextAttemptAt: new Date(next).toISOString() }) },
          endedAt,
        ),
      );
      if (next === undefined) break;
      startedAt = next + FIRST_TRY_AFTER_MS / 3;
    }
    return events;
  });
}
