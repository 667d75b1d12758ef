import { sha256Hex } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { testConfig, TestOrigin, type OriginAnswer } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'edge-render-token';
const SCRIPTED = `<html><head><title>before</title></head><body><div id="app"></div>
<script>document.title = 'Rendered title'; document.getElementById('app').textContent = 'made by script';</script></body></html>`;
/** A single-page app that shows the state its `#!` fragment names, as AJAX-crawlable apps do. */
const HASHBANG_APP = `<html><head><title>app</title><meta name="fragment" content="!"></head><body><div id="app"></div>
<script>document.getElementById('app').textContent = 'state [' + location.hash + ']';</script></body></html>`;

/**
 * Pages that try to make the edge serve one of our internal endpoints (the
 * projector's `/metrics`, the public API's OpenAPI document) as theirs: the
 * attack the renderer was open to (docs/renderer-egress.md).
 */
function hostilePage(path: string, internal: { metrics: string; openapi: string }): OriginAnswer | undefined {
  const page = (head: string, body = ''): OriginAnswer => ({ status: 200, body: `<!DOCTYPE html><html><head><title>shop</title>${head}</head><body><p>shop page</p>${body}</body></html>` });
  if (path === '/hostile/script') return page(`<script>location.href = ${JSON.stringify(internal.metrics)};</script>`);
  if (path === '/hostile/refresh') return page(`<meta http-equiv="refresh" content="0;url=${internal.openapi}">`);
  if (path === '/hostile/redirect') return { status: 302, body: '', headers: { location: internal.metrics } };
  if (path === '/hostile/frame') return page('', `<iframe src="${internal.metrics}"></iframe><script>fetch(${JSON.stringify(internal.openapi)}).then((r) => r.text()).then((t) => document.body.append(t), () => undefined);</script>`);
  return undefined;
}

/** Real Chromium renders through the edge, one tab (the machine's cores are shared). */
describe('edge online render (standalone mode, Chromium)', () => {
  let running: RunningApps;
  let origin: TestOrigin;
  const internal = () => ({ metrics: `${running.urls.projector}/metrics`, openapi: `${running.urls['public-api']}/docs/openapi.json` });

  beforeAll(async () => {
    origin = new TestOrigin((path) => hostilePage(path, internal()) ?? { status: 200, body: path.startsWith('/spa') ? HASHBANG_APP : SCRIPTED, delayMs: 50 });
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

  describe('a customer page cannot make the edge serve an internal page', () => {
    const bot = (path: string) => fetch(`${running.urls.edge}/https://www.example.com${path}`, { headers: { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' }, redirect: 'manual' });
    const leaked = (body: string) => /# HELP|bpc_|"openapi"/.test(body);

    it.each(['/hostile/script', '/hostile/refresh'])('fails the render of a page that navigates to an internal endpoint (%s), and serves nothing of it, then or later', async (path) => {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const answer = await bot(path);
        expect(answer.status).toBe(503);
        expect(leaked(await answer.text())).toBe(false);
      }
    });

    it("serves the origin's redirect to an internal address as a redirect, never the page it names", async () => {
      const answer = await bot('/hostile/redirect');
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe(internal().metrics);
      expect(await answer.text()).toBe('');
    });

    it('serves the page without what its frames and scripts asked of internal endpoints', async () => {
      const answer = await bot('/hostile/frame');
      expect(answer.status).toBe(200);
      const body = await answer.text();
      expect(body).toContain('shop page');
      expect(leaked(body)).toBe(false);
    });
  });
});
