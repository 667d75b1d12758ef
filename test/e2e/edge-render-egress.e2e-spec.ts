import { sha256Hex } from '@bpc/domain';
import { createLogger, RunningApps, startApps } from '@bpc/platform';
import { testConfig, TestOrigin, type OriginAnswer } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'edge-egress-token';

/**
 * The attack the renderer was open to: a customer's page sends Chromium to
 * one of our own internal endpoints (the projector's `/metrics`, the public
 * API's OpenAPI document), the render is stored and the edge serves the
 * internal page to any bot-shaped request. Standalone mode, real Chromium.
 */
describe('edge: a customer page cannot make the edge serve an internal page', () => {
  let running: RunningApps;
  let origin: TestOrigin;
  const internal = (): Record<string, string> => ({ metrics: `${running.urls.projector}/metrics`, openapi: `${running.urls['public-api']}/docs/openapi.json` });
  const page = (html: string): OriginAnswer => ({ status: 200, body: `<!DOCTYPE html><html><head><title>shop</title>${html}</head><body><p>shop page</p></body></html>` });

  beforeAll(async () => {
    origin = new TestOrigin((path) => {
      const { metrics, openapi } = internal();
      if (path === '/script') return page(`<script>location.href = ${JSON.stringify(metrics)};</script>`);
      if (path === '/refresh') return page(`<meta http-equiv="refresh" content="0;url=${openapi}">`);
      if (path === '/redirect') return { status: 302, body: '', headers: { location: metrics } };
      if (path === '/frame') return page(`</head><body><iframe src="${metrics}"></iframe><script>fetch(${JSON.stringify(openapi)}).then((r) => r.text()).then((t) => document.body.append(t), () => undefined);</script>`);
      return { status: 404, body: 'no such page' };
    });
    const originUrl = await origin.start();
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      render_service: { tabs: 1, reservation_percent: 100 },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'render' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', 'edge-egress'));
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
  });

  const bot = (path: string) => fetch(`${running.urls.edge}/https://www.example.com${path}`, { headers: { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' }, redirect: 'manual' });
  const leaked = (body: string) => /# HELP|bpc_|"openapi"/.test(body);

  it.each(['/script', '/refresh'])('fails the render of a page that navigates to an internal endpoint (%s), and serves nothing of it, then or later', async (path) => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await bot(path);
      expect(answer.status).toBe(503);
      expect(leaked(await answer.text())).toBe(false);
    }
  });

  it("serves the origin's redirect to an internal address as a redirect, never the page it names", async () => {
    const answer = await bot('/redirect');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(internal().metrics);
    expect(await answer.text()).toBe('');
  });

  it('serves the page without what its frames and scripts asked of internal endpoints', async () => {
    const answer = await bot('/frame');
    expect(answer.status).toBe(200);
    const body = await answer.text();
    expect(body).toContain('shop page');
    expect(leaked(body)).toBe(false);
  });
});
