import { ALERT_DELIVERY_ATTEMPTED, TOPICS } from '@bpc/events';
import { AppendsNoted, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { alertInputsOf, demoAlertEvents, demoAlerts } from './demo-alerts';
import { demoSearchDays, demoTraffic } from './demo-traffic';
import { GenerateDemoData } from './generate-demo-data.command';
import { GenerateDemoDataHandler } from './generate-demo-data.handler';

/** A Friday, a minute before midnight: the day is whole. */
const NOW = Date.parse('2026-11-20T23:59:00Z');

describe('GenerateDemoData', () => {
  let state: StandaloneState;
  let log: AppendsNoted;
  let handler: GenerateDemoDataHandler;

  beforeEach(async () => {
    // Website demo on host 1, whose first hostname is www.example.com.
    state = await openStandaloneState({ websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }] });
    log = new AppendsNoted(state.log);
    handler = new GenerateDemoDataHandler(log, state.config, new TestClock(NOW));
  });

  afterEach(() => state.close());

  it("records the demo traffic of the website's host, day by day and oldest first, then its search days and the alerts it raised, and says what it wrote", async () => {
    const input = { websiteId: 'demo', days: 3, requestsPerDay: 50, seed: 7 };
    const written = await handler.execute(new GenerateDemoData(input));

    const options = { ...input, hostId: 1, hostname: 'www.example.com', nowMs: NOW };
    const days = [...demoTraffic(options)];
    const requests = days.flatMap((day) => day.botRequests);
    const renders = days.flatMap((day) => day.renders);
    const search = [...demoSearchDays(options)].flat();
    const alerts = demoAlertEvents(demoAlerts(alertInputsOf(renders), { websiteId: 'demo', fromMs: Date.parse('2026-11-18T00:00:00Z'), nowMs: NOW }));
    const receipts = days.flatMap((day) => day.receipts);
    expect(receipts).toHaveLength(2);
    expect(alerts.length).toBeGreaterThan(0);
    expect(written).toEqual({
      websiteId: 'demo', botRequests: requests.length, renders: renders.length, searchDays: 3, receipts, alertDeliveries: alerts.filter((e) => e.type === ALERT_DELIVERY_ATTEMPTED).length, from: '2026-11-18', to: '2026-11-20',
    });
    const queue = await state.recorded(TOPICS.queue);
    expect(queue.map((e) => e.id)).toEqual(days.flatMap((day) => day.queue).map((e) => e.id));
    expect(new Set(queue.map((e) => e.key))).toEqual(new Set(['1']));
    expect((await state.recorded(TOPICS.alerts)).map((e) => e.id)).toEqual(alerts.map((e) => e.id));
    // The alerts and their tries in one append: a deliverer caught up with the topic has read each alert with its tries.
    expect(log.appends.filter((a) => a.topic === TOPICS.alerts).map((a) => a.events)).toEqual([alerts.length]);
    const recordedRequests = await state.recorded(TOPICS.botRequests);
    expect(recordedRequests.map((e) => e.id)).toEqual(requests.map((e) => e.id));
    expect(new Set(recordedRequests.map((e) => e.key))).toEqual(new Set(['demo']));
    expect((await state.recorded(TOPICS.searchPerformance)).map((e) => e.id)).toEqual(search.map((e) => e.id));
    const recordedRenders = await state.recorded(TOPICS.renders);
    expect(recordedRenders.map((e) => e.id)).toEqual(renders.map((e) => e.id));
    expect(new Set(recordedRenders.map((e) => e.key))).toEqual(new Set(['1']));
  });

  it('appends a busy day in pieces of at most 5,000 events', async () => {
    const written = await handler.execute(new GenerateDemoData({ websiteId: 'demo', days: 1, requestsPerDay: 12_000, seed: 7 }));

    const pieces = log.appends.filter((a) => a.topic === TOPICS.botRequests).map((a) => a.events);
    expect(pieces.length).toBeGreaterThan(2);
    expect(Math.max(...pieces)).toBe(5_000);
    expect(pieces.reduce((sum, n) => sum + n, 0)).toBe(written.botRequests);
  });

  it('refuses an unknown website with VALIDATION_FAILED naming website, and records nothing', async () => {
    await expect(handler.execute(new GenerateDemoData({ websiteId: 'nope', days: 3, requestsPerDay: 50, seed: 7 }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'website' });
    expect(log.appends).toEqual([]);
  });

  it('answers LOG_UNAVAILABLE when the log refuses an append', async () => {
    await state.closeLog();
    await expect(handler.execute(new GenerateDemoData({ websiteId: 'demo', days: 1, requestsPerDay: 50, seed: 7 }))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/^event log unavailable: /) });
  });
});
