import type { AppConfig } from '@bpc/config';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, RuntimeMode, TestClock, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

/**
 * Events the other suites produce in one mode only (search performance, an
 * export's expiry), produced here in both, so the published schemas are
 * checked against each type in the file log and in Kafka (the e2e setup
 * validates every event of the file; see test/harness/event-audit.ts).
 */
describe.each<RuntimeMode>(['standalone', 'cluster'])('events checked against the published schemas in both modes (%s)', (mode) => {
  let config: AppConfig;
  let clock: TestClock;
  let running: RunningApps;
  let api: string;
  let token: string;

  const start = async () => {
    running = await startApps(standaloneApps, config, createLogger('silent', `event-schemas-${mode}`), clock);
    api = running.urls['public-api']!;
  };
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${api}/api/websites/demo/${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await jsonOf(response) };
  };

  beforeAll(async () => {
    clock = new TestClock(Date.now());
    config = testConfig(mode, { scheduler: { enabled: false }, exports: { retention_hours: 1 } });
    await start();
    token = (await issueToken(api, { user: 'mia', website: 'demo', role: 'manager' })).token;
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  it('records SearchPerformanceRecorded for an imported day', async () => {
    const csv = 'Top pages,Clicks,Impressions,CTR,Position\nhttps://www.example.com/a|b?q={x},10,100,10%,2.5\n';
    expect(await post('search-performance/import', { format: 'pages_csv', date: '2026-03-02', content: csv })).toEqual({
      status: 200,
      body: { websiteId: 'demo', days: [{ date: '2026-03-02', grain: 'page', rows: 1 }] },
    });
  });

  it('records ExportStarted, ExportCompleted and, past the retention, ExportExpired', async () => {
    await recordAndWait(running, [botRequest('demo', new Date(clock.now() - 60_000), { cacheStatus: 'miss', snapshotAgeS: null })], 'demo', 1);
    const record = await post('data-explorer/events/export', { waitSeconds: 20 });
    expect(record.body).toMatchObject({ status: 'completed', rowCount: 1 });
    clock.advance(2 * 3_600_000);
    // Every start sweeps the exports past their retention.
    await running.close();
    await start();
    const gone = await fetch(`${api}/api/websites/demo/data-explorer/export/${record.body.exportId}/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status).toBe(404);
  }, 60_000);
});
