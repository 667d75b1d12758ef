import { sha256Hex } from '@bpc/domain';
import { createLogger, RunningApps, startApps } from '@bpc/platform';
import { testConfig, TestOrigin } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'edge-render-token';
const SCRIPTED = `<html><head><title>before</title></head><body><div id="app"></div>
<script>document.title = 'Rendered title'; document.getElementById('app').textContent = 'made by script';</script></body></html>`;
/** A single-page app that shows the state its `#!` fragment names, as AJAX-crawlable apps do. */
const HASHBANG_APP = `<html><head><title>app</title><meta name="fragment" content="!"></head><body><div id="app"></div>
<script>document.getElementById('app').textContent = 'state [' + location.hash + ']';</script></body></html>`;

/** One real Chromium render through the edge (kept to one page: the machine's cores are shared). */
describe('edge online render (standalone mode, Chromium)', () => {
  let running: RunningApps;
  let origin: TestOrigin;

  beforeAll(async () => {
    origin = new TestOrigin((path) => ({ status: 200, body: path.startsWith('/spa') ? HASHBANG_APP : SCRIPTED, delayMs: 50 }));
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

  it('renders an _escaped_fragment_ request as the #! page its script reads: one entry per state, the empty one being the page itself', async () => {
    const headers = { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' };
    const get = async (page: string) => {
      const response = await fetch(`${running.urls.edge}/${page}`, { headers });
      return { status: response.status, cache: response.headers.get('x-prerender-cache'), body: await response.text() };
    };
    const ugly = await get('https://www.example.com/spa?_escaped_fragment_=product=42');
    expect(ugly).toMatchObject({ status: 200, cache: 'miss' });
    expect(ugly.body).toContain('state [#!product=42]');
    expect(await get('https://www.example.com/spa?_escaped_fragment_=product=42')).toEqual({ ...ugly, cache: 'hit' });
    const other = await get('https://www.example.com/spa?_escaped_fragment_=product=7');
    expect(other.body).toContain('state [#!product=7]');
    const itself = await get('https://www.example.com/spa?_escaped_fragment_=');
    expect(itself).toMatchObject({ status: 200, cache: 'miss' });
    expect(itself.body).toContain('state []');
    expect(await get('https://www.example.com/spa')).toEqual({ ...itself, cache: 'hit' });
    // The origin was asked for the page only: the state stays in the browser, the parameter is never forwarded.
    expect([...origin.hits.entries()].filter(([path]) => path.startsWith('/spa'))).toEqual([['/spa', 3]]);
  });
});
