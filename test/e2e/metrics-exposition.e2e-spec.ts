import { sha256Hex } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { bypassHost, promlintProblems, removeTestDataDir, RuntimeMode, TEST_INTERNAL_KEY, testConfig, TestOrigin } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'exposition-prerender-token';
const APPS = ['public-api', 'daemon', 'edge', 'projector'] as const;

describe.each<RuntimeMode>(['standalone', 'cluster'])('/metrics of every app passes the promtool check metrics rules (%s mode)', (mode) => {
  let running: RunningApps;
  let origin: TestOrigin;

  beforeAll(async () => {
    origin = new TestOrigin(() => ({ status: 200, body: '<html><title>ok</title><body>ok</body></html>' }));
    const config = testConfig(mode, {
      hosts: [bypassHost(await origin.start())],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', `exposition-${mode}`));
    // Traffic on every app, so labelled families have series too.
    await fetch(`${running.urls.edge}/https://www.example.com/page`, { headers: { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' } });
    await fetch(`${running.urls.daemon}/internal/cache/recache`, {
      method: 'POST',
      headers: { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ host_id: 1, urls: ['https://www.example.com/other'], priority: 'high' }),
    });
    await fetch(`${running.urls['public-api']}/api/websites/demo/data-explorer`);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  it.each(APPS)('%s: HELP and TYPE on every family, _total on counters only, base units, no reserved suffix or label', async (app) => {
    const response = await fetch(`${running.urls[app]}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/^# TYPE bpc_http_requests_total counter$/m);
    expect({ app, problems: promlintProblems(text) }).toEqual({ app, problems: [] });
  });
});
