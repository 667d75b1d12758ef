import { sha256Hex } from '@bpc/domain';
import { RunningApps, startApps } from '@bpc/composition';
import { bypassHost, DaemonClient, freePort, rawRequest, testConfig, TestOrigin } from '@bpc/testing';
import pino from 'pino';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'edge-answers-token';
const DOWN_TOKEN = 'edge-answers-down-token';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** Issue 29, item 6 (the edge's part): what a bot is told when a page fails, and `_escaped_fragment_`. */
describe('edge answers (standalone mode)', () => {
  let running: RunningApps;
  let origin: TestOrigin;
  let closedPort: number;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    origin = new TestOrigin((path) => ({ status: 200, body: `<html><head><title>${path}</title></head><body>page ${path}</body></html>` }));
    const originUrl = await origin.start();
    // An origin nothing listens on: its fetch fails with the address in the error.
    closedPort = await freePort();
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      hosts: [bypassHost(originUrl), { host_id: 2, hostnames: ['down.example.org'], origin: `http://127.0.0.1:${closedPort}`, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] }],
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) },
        { id: 'down', host_id: 2, account_id: 'acme', prerender_token_sha256: sha256Hex(DOWN_TOKEN) },
      ],
    });
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
    running = await startApps(standaloneApps, config, logger);
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
  });

  const get = (target: string, token = TOKEN) => rawRequest(running.urls.edge!, target, { headers: { 'x-prerender-token': token, 'user-agent': GOOGLEBOT } });

  it('tells a bot a generic message and the request id when a miss fails; the reason is in the log under that id', async () => {
    const answer = await get('/https://down.example.org/page', DOWN_TOKEN);
    const requestId = String(answer.headers['x-request-id']);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body.toString())).toEqual({ code: 'RENDER_FAILED', message: 'the page could not be rendered; try again later', requestId });
    expect(answer.body.toString()).not.toContain(String(closedPort));
    const logged = logLines.find((line) => line.reqId === requestId && line.msg === 'online render failed');
    expect(logged).toMatchObject({ code: 'RENDER_FAILED', url: 'https://down.example.org/page', reason: expect.any(String) });
    expect(String(logged!.reason)).not.toBe('');

    const unknown = await get('/https://www.example.com/x', 'no-such-token');
    expect(JSON.parse(unknown.body.toString())).toEqual({ code: 'UNAUTHENTICATED', message: 'missing or unknown X-Prerender-Token', requestId: unknown.headers['x-request-id'] });
  });

  it('serves _escaped_fragment_ as the #! page it stands for: cached under the #! URL the daemon names too, the origin asked for the page itself', async () => {
    const ugly = await get('/https://www.example.com/app?_escaped_fragment_=product=42');
    expect([ugly.status, ugly.headers['x-prerender-cache']]).toEqual([200, 'bypass']);
    expect((await get('/https://www.example.com/app?_escaped_fragment_=product=42')).headers['x-prerender-cache']).toBe('hit');
    const cache = running.runtime.ports.cacheStore!;
    expect(await cache.get(1, 'https://www.example.com/app#!product=42', 1)).toBeDefined();
    // The empty form is the page itself: one entry with the plain URL.
    expect((await get('/https://www.example.com/app?_escaped_fragment_=')).headers['x-prerender-cache']).toBe('bypass');
    expect((await get('/https://www.example.com/app')).headers['x-prerender-cache']).toBe('hit');
    expect([...origin.hits.keys()].filter((path) => path.startsWith('/app'))).toEqual(['/app']);

    // The daemon reads the #! URL, and the ugly one, as the same entry.
    const daemon = new DaemonClient(running.urls.daemon!);
    const invalidated = await daemon.post('/internal/cache/invalidate', { host_id: 1, urls: ['https://www.example.com/app?_escaped_fragment_=product=42'], dimension_ids: [1] });
    expect(invalidated.status).toBe(200);
    expect(await cache.get(1, 'https://www.example.com/app#!product=42', 1)).toBeUndefined();
    expect((await get('/https://www.example.com/app?_escaped_fragment_=product=42')).headers['x-prerender-cache']).toBe('bypass');
  });
});
