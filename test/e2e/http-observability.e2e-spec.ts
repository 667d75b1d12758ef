import pino from 'pino';
import { sha256Hex } from '@bpc/domain';
import { RunningApps, startApps } from '@bpc/composition';
import { bypassHost, metricValue, rawRequest, removeTestDataDir, TEST_INTERNAL_KEY, testConfig, TestOrigin } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

type LogLine = Record<string, unknown>;

const TOKEN = 'observability-prerender-token';
const bot = { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' };
const APPS = ['public-api', 'daemon', 'edge', 'projector'] as const;

const requests = (method: string, route: string, statusClass: string) => `bpc_http_requests_total{method="${method}",route="${route}",status_class="${statusClass}"}`;
const durations = (method: string, route: string, statusClass: string) => `bpc_http_request_duration_seconds_count{method="${method}",route="${route}",status_class="${statusClass}"}`;

describe('HTTP metrics and request ids (standalone)', () => {
  const lines: LogLine[] = [];
  let running: RunningApps;
  let origin: TestOrigin;
  const url = (app: (typeof APPS)[number]) => running.urls[app]!;
  const scrape = async (app: (typeof APPS)[number]) => {
    const response = await fetch(`${url(app)}/metrics`);
    return { status: response.status, text: await response.text() };
  };

  beforeAll(async () => {
    origin = new TestOrigin((path) => (path === '/broken' ? { status: 500, body: 'down' } : { status: 200, body: '<html><title>ok</title><body>ok</body></html>' }));
    const originUrl = await origin.start();
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      edge: { render_timeout_ms: 3_000 },
      hosts: [bypassHost(originUrl)],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    running = await startApps(standaloneApps, config, logger);
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  it('every app serves /metrics with requests counted and timed by method, route template and status class', async () => {
    for (const app of APPS) {
      expect((await fetch(`${url(app)}/health/live`)).status).toBe(200);
      expect((await fetch(`${url(app)}/no-such-path/4711?key=secret`, { method: 'DELETE' })).status).toBe(404);
      const { status, text } = await scrape(app);
      expect({ app, status }).toEqual({ app, status: 200 });
      expect({ app, live: metricValue(text, requests('GET', '/health/live', '2xx')) }).toEqual({ app, live: 1 });
      expect({ app, timed: metricValue(text, durations('GET', '/health/live', '2xx')) }).toEqual({ app, timed: 1 });
      // Unknown paths are one label value: a scanner cannot grow the series without bound.
      expect({ app, unmatched: metricValue(text, requests('DELETE', 'unmatched', '4xx')) }).toEqual({ app, unmatched: 1 });
      expect(text).not.toContain('no-such-path');
    }
  });

  it('labels a route by its template, not by the path requested', async () => {
    expect((await fetch(`${url('public-api')}/api/websites/demo/data-explorer`)).status).toBe(401);
    expect((await fetch(`${url('daemon')}/status`, { headers: { 'x-internal-auth': TEST_INTERNAL_KEY } })).status).toBe(200);
    const publicText = (await scrape('public-api')).text;
    expect(metricValue(publicText, requests('GET', '/api/websites/:website/data-explorer', '4xx'))).toBe(1);
    expect(publicText).not.toContain('/api/websites/demo');
    expect(metricValue((await scrape('daemon')).text, requests('GET', '/status', '2xx'))).toBe(1);
  });

  it('the edge counts bot requests by cache status and status class, and times them', async () => {
    expect((await rawRequest(url('edge'), '/https://www.example.com/p', { headers: { 'user-agent': 'Googlebot/2.1' } })).status).toBe(401);
    const first = await rawRequest(url('edge'), '/https://www.example.com/p', { headers: bot });
    expect([first.status, first.headers['x-prerender-cache']]).toEqual([200, 'bypass']);
    const second = await rawRequest(url('edge'), '/https://www.example.com/p', { headers: bot });
    expect([second.status, second.headers['x-prerender-cache']]).toEqual([200, 'hit']);
    const text = (await scrape('edge')).text;
    expect(metricValue(text, 'bpc_edge_requests_total{cache_status="none",status_class="4xx"}')).toBe(1);
    expect(metricValue(text, 'bpc_edge_requests_total{cache_status="bypass",status_class="2xx"}')).toBe(1);
    expect(metricValue(text, 'bpc_edge_requests_total{cache_status="hit",status_class="2xx"}')).toBe(1);
    expect(metricValue(text, 'bpc_edge_serve_duration_seconds_count{cache_status="hit"}')).toBe(1);
    expect(metricValue(text, 'bpc_edge_serve_duration_seconds_count{cache_status="bypass"}')).toBe(1);
  });

  it('honours a sane incoming X-Request-Id, replaces any other, returns it and logs it with the request', async () => {
    const honoured = await fetch(`${url('daemon')}/status`, { headers: { 'x-internal-auth': TEST_INTERNAL_KEY, 'x-request-id': 'lb-7f3a.19' } });
    expect(honoured.headers.get('x-request-id')).toBe('lb-7f3a.19');
    expect(lines.find((l) => l.msg === 'request' && l.reqId === 'lb-7f3a.19')).toMatchObject({ method: 'GET', route: '/status', status: 200 });

    for (const incoming of ['two words', 'x'.repeat(200), 'evil\u00e9']) {
      const replaced = await fetch(`${url('public-api')}/api/websites/demo/data-explorer`, { headers: { 'x-request-id': incoming } });
      const id = replaced.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.find((l) => l.msg === 'request' && l.reqId === id)).toMatchObject({ status: 401, route: '/api/websites/:website/data-explorer' });
    }
  });

  it('the edge logs a failed bot request under the request id the bot got', async () => {
    const failed = await rawRequest(url('edge'), '/https://www.example.com/broken', { headers: bot });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const id = failed.headers['x-request-id'];
    expect(id).toEqual(expect.any(String));
    expect(lines.find((l) => l.reqId === id)).toMatchObject({ msg: 'online render failed' });
  });
});
