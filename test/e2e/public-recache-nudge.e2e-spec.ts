import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { removeTestDataDir, testConfig, TestOrigin, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

/**
 * Standalone runs the public API and the daemon in one process: a public
 * recache tells the scheduler at once (an in-process signal shared by the
 * apps) instead of waiting for its next tick, here a minute away.
 */
describe('public recache in standalone mode', () => {
  let running: RunningApps;
  let origin: TestOrigin;

  beforeAll(async () => {
    origin = new TestOrigin((path) => ({ status: 200, body: `<html><head><title>${path}</title></head><body>${path}</body></html>` }));
    const originUrl = await origin.start();
    const config = testConfig('standalone', {
      scheduler: { tick_ms: 60_000 },
      rate_limit: { enabled: false },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'bypass' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', 'public-recache-nudge'));
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  it('is fetched from the origin within a few seconds although the next tick is a minute away', async () => {
    const api = running.urls['public-api']!;
    const { token } = await issueToken(api, { user: 'mona', website: 'demo', role: 'manager' });
    // The first tick ran at startup; the next is 60 s away.
    const response = await fetch(`${api}/api/websites/demo/cache/recache`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: ['https://www.example.com/nudged'] }),
    });
    expect(response.status).toBe(200);
    await until(() => (origin.hits.get('/nudged') ?? 0) > 0, { timeoutMs: 5_000, intervalMs: 20, what: 'an origin fetch of /nudged' });
    expect(origin.hits.get('/nudged')).toBe(1);
  });
});
