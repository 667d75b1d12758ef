import { FIRST_TRY_WITHIN_MS } from '@bpc/domain';
import { ALERT_DELIVERY_ATTEMPTED, ALERT_RAISED, type AlertDeliveryAttempted, type AlertEvent } from '@bpc/events';
import { FAILED_OUTCOMES } from '../renders/renders-catalog';
import { type AlertInput, alertInputsOf, DEMO_ALERT_RULES, demoAlertEvents, demoAlerts } from './demo-alerts';
import { demoTraffic } from './demo-traffic';

const MINUTE_MS = 60_000;
const NOW = Date.parse('2026-11-21T12:00:00Z');
const range = { websiteId: 'demo', fromMs: NOW - 10 * 86_400_000, nowMs: NOW };
const failures = (count: number, from: number, reason = 'origin answered 502'): AlertInput[] => Array.from({ length: count }, (_, i) => ({ kind: 'failure', at: from + i * 1_000, reason }));
const at = (iso: string) => Date.parse(iso);

describe('demo alerts: what the evaluator would have raised over the demo renders', () => {
  it(`raises render_failures at the first minute its last ${DEMO_ALERT_RULES.renderFailures.windowMinutes} minutes hold ${DEMO_ALERT_RULES.renderFailures.threshold} failures, once per aligned window, with the top reasons`, () => {
    const inputs = [...failures(15, at('2026-11-15T02:05:10Z')), ...failures(3, at('2026-11-15T02:06:30Z'), 'timed out after 20 s'), ...failures(4, at('2026-11-15T02:07:10Z'))];
    const alerts = demoAlerts(inputs, range);
    expect(alerts.map((a) => [a.id, a.occurredAt])).toEqual([
      // 18 failures at 02:07, 22 once those of 02:07 are in, at 02:08; and still 22 in the next window's first minute.
      ['render_failures:demo:2026-11-15T02:00:00.000Z', '2026-11-15T02:08:00.000Z'],
      ['render_failures:demo:2026-11-15T02:15:00.000Z', '2026-11-15T02:15:00.000Z'],
    ]);
    expect(alerts[0]!.data).toEqual({ failures: 22, threshold: 20, windowMinutes: 15, from: '2026-11-15T01:53:00.000Z', to: '2026-11-15T02:08:00.000Z', topReasons: [{ reason: 'origin answered 502', renders: 19 }, { reason: 'timed out after 20 s', renders: 3 }] });
    expect(alerts[1]!.data).toMatchObject({ failures: 22 });
    expect(demoAlerts(failures(19, at('2026-11-15T02:05:00Z')), range)).toEqual([]);
  });

  it('raises noindex_appeared the minute after a page turned noindex, naming it, until the window has passed or the day ends with it lifted', () => {
    const change = (iso: string, url: string, after: string): AlertInput => ({ kind: 'noindex', at: at(iso), url, dimensionId: 1, after });
    const alerts = demoAlerts([change('2026-11-19T09:20:30Z', 'https://www.example.com/features', 'true')], range);
    expect(alerts.map((a) => [a.id, a.occurredAt, a.data.pages, a.data.examples])).toEqual([
      ['noindex_appeared:demo:2026-11-19T09:00:00.000Z', '2026-11-19T09:21:00.000Z', 1, ['https://www.example.com/features']],
      ['noindex_appeared:demo:2026-11-19T10:00:00.000Z', '2026-11-19T10:00:00.000Z', 1, ['https://www.example.com/features']],
    ]);
    // Lifted at 09:50 the same day: its latest change of the day is no noindex, so the next window has none.
    const lifted = demoAlerts([change('2026-11-19T09:20:30Z', 'https://www.example.com/features', 'true'), change('2026-11-19T09:50:00Z', 'https://www.example.com/features', 'false')], range);
    expect(lifted.map((a) => a.id)).toEqual(['noindex_appeared:demo:2026-11-19T09:00:00.000Z']);
  });

  it('leaves out alerts raised within the last 24 hours: the deliverer could still try one for the first time', () => {
    expect(demoAlerts(failures(20, NOW - FIRST_TRY_WITHIN_MS + 10_000), range)).toEqual([]);
    // Raised at 11:56 yesterday, and again as yesterday's 12:00 window began: 24 hours ago exactly, the last one kept.
    const kept = demoAlerts(failures(20, NOW - FIRST_TRY_WITHIN_MS - 5 * MINUTE_MS), range);
    expect(kept.map((a) => a.occurredAt)).toEqual(['2026-11-20T11:56:00.000Z', '2026-11-20T12:00:00.000Z']);
  });

  it('records each alert raised, then its tries: delivered at once, the first noindex alert after a 503 and a retry two minutes later', () => {
    const alerts = demoAlerts([...failures(20, at('2026-11-15T02:05:10Z')), { kind: 'noindex', at: at('2026-11-19T09:20:30Z'), url: 'https://www.example.com/features', dimensionId: 1, after: 'true' }], range);
    const events = demoAlertEvents(alerts);
    const shown = (e: AlertEvent) => (e.type === ALERT_RAISED ? [e.type, e.id, e.occurredAt] : [e.type, e.id, e.occurredAt, e.payload.status, e.payload.httpStatus, e.payload.error, e.payload.nextAttemptAt ?? null]);
    expect(events.slice(0, 2).map(shown)).toEqual([
      [ALERT_RAISED, 'alert:render_failures:demo:2026-11-15T02:00:00.000Z', '2026-11-15T02:06:00.000Z'],
      [ALERT_DELIVERY_ATTEMPTED, 'alert:render_failures:demo:2026-11-15T02:00:00.000Z#1', '2026-11-15T02:06:01.380Z', 'delivered', 200, '', null],
    ]);
    const noindex = events.filter((e) => e.payload.alertId === 'noindex_appeared:demo:2026-11-19T09:00:00.000Z');
    expect(noindex.map(shown)).toEqual([
      [ALERT_RAISED, 'alert:noindex_appeared:demo:2026-11-19T09:00:00.000Z', '2026-11-19T09:21:00.000Z'],
      [ALERT_DELIVERY_ATTEMPTED, 'alert:noindex_appeared:demo:2026-11-19T09:00:00.000Z#1', '2026-11-19T09:21:01.380Z', 'retrying', 503, 'HTTP 503', '2026-11-19T09:23:01.380Z'],
      [ALERT_DELIVERY_ATTEMPTED, 'alert:noindex_appeared:demo:2026-11-19T09:00:00.000Z#2', '2026-11-19T09:23:01.960Z', 'delivered', 200, '', null],
    ]);
    // Every alert's last try delivered it, and every event is on the website's key: nothing is left for a deliverer to send.
    const lastTries = new Map(events.filter((e): e is AlertDeliveryAttempted => e.type === ALERT_DELIVERY_ATTEMPTED).map((e) => [e.payload.alertId, e.payload.status]));
    expect([...lastTries.keys()].sort()).toEqual(alerts.map((a) => a.id).sort());
    expect(new Set(lastTries.values())).toEqual(new Set(['delivered']));
    expect(new Set(events.map((e) => e.key))).toEqual(new Set(['demo']));
  });

  it("tells the demo's story: the night of the outage raised render_failures and the noindex deploy noindex_appeared, with figures the renders give", () => {
    const options = { websiteId: 'demo', hostId: 1, hostname: 'www.example.com', nowMs: NOW, days: 30, requestsPerDay: 500, seed: 7 };
    const renders = [...demoTraffic(options)].flatMap((day) => day.renders);
    const alerts = demoAlerts(alertInputsOf(renders), { websiteId: 'demo', fromMs: Date.parse('2026-10-23T00:00:00Z'), nowMs: NOW });
    expect(new Set(alerts.map((a) => a.type))).toEqual(new Set(['render_failures', 'noindex_appeared']));
    for (const alert of alerts) {
      const { from, to } = alert.data as { from: string; to: string };
      const within = renders.filter((r) => r.occurredAt >= from && r.occurredAt < to);
      if (alert.type === 'render_failures') {
        expect(alert.data.failures).toBe(within.filter((r) => FAILED_OUTCOMES.includes(r.payload.outcome)).length);
        expect((alert.data.topReasons as { reason: string }[])[0]!.reason).toBe('origin answered 502');
      } else {
        expect(within.filter((r) => r.payload.changes?.some((c) => c.field === 'noindex' && c.after === 'true')).map((r) => r.payload.url)).toContain('https://www.example.com/features');
      }
    }
  });
});
