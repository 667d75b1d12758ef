import { sha256Hex } from '@bpc/domain';
import { createLogger, RunningApps, startApps } from '@bpc/platform';
import { testConfig, TestOrigin } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'edge-render-token';
const SCRIPTED = `<html><head><title>before</title></head><body><div id="app"></div>
<script>document.title = 'Rendered title'; document.getElementById('app').textContent = 'made by script';</script></body></html>`;

/** One real Chromium render through the edge (kept to one page: the machine's cores are shared). */
describe('edge online render (standalone mode, Chromium)', () => {
  let running: RunningApps;
  let origin: TestOrigin;

  beforeAll(async () => {
    origin = new TestOrigin(() => ({ status: 200, body: SCRIPTED, delayMs: 50 }));
    const originUrl = await origin.start();
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      render_service: { tabs: 1, reservation_percent: 100 },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'render' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', 'edge-render'));
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
  });

  it('renders a miss in the browser on an online tab, shared by concurrent bots, then serves it as a hit', async () => {
    const url = `${running.urls.edge}/https://www.example.com/app`;
    const headers = { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' };
    const misses = await Promise.all(Array.from({ length: 10 }, () => fetch(url, { headers })));
    const bodies = await Promise.all(misses.map((r) => r.text()));
    expect(misses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(misses[0].headers.get('x-prerender-cache')).toBe('miss');
    expect(bodies[0]).toContain('made by script');
    expect(bodies[0]).toContain('<title>Rendered title</title>');
    expect(origin.hits.get('/app')).toBe(1);
    const hit = await fetch(url, { headers });
    expect(hit.headers.get('x-prerender-cache')).toBe('hit');
    expect(await hit.text()).toBe(bodies[0]);
  });
});
