import pino from 'pino';
import { SCRAPE_READ_TIMEOUT_MS } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { metricValue, RunningEngine, settlesBefore, startRedis, TEST_INTERNAL_KEY, testConfig } from '@bpc/testing';
import { daemonApp } from '../../apps/daemon/src/daemon.app';
import { projectorApp } from '../../apps/projector/src/projector.app';
import { publicApiApp } from '../../apps/public-api/src/public-api.app';
import { issueToken } from './explorer-fixtures';

type LogLine = Record<string, unknown>;

const daemonHeaders = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };
const QUEUED = 'bpc_queue_entries{host="1",priority="normal",state="total"}';

/** A scrape. */
async function scrape(base: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}/metrics`);
  return { status: response.status, text: await response.text() };
}

describe('/metrics and error logs while Redis is down (cluster mode)', () => {
  const lines: LogLine[] = [];
  let redis: RunningEngine;
  let running: RunningApps;
  let daemon: string;
  let api: string;
  let token: string;

  beforeAll(async () => {
    redis = await startRedis();
    const config = testConfig('cluster', { redis: { url: redis.url, key_prefix: 'metrics-outage' }, scheduler: { enabled: false }, rate_limit: { enabled: false } });
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    running = await startApps([projectorApp, daemonApp, publicApiApp], config, logger);
    daemon = running.urls.daemon!;
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'mona', website: 'demo', role: 'manager' }));
  });

  afterAll(async () => {
    await running?.close();
    await redis?.stop();
  });

  it('still answers 200 at once, with the last queue depth it read', async () => {
    const recache = await fetch(`${daemon}/internal/cache/recache`, { method: 'POST', headers: daemonHeaders, body: JSON.stringify({ host_id: 1, urls: ['https://www.example.com/a'], priority: 'normal' }) });
    expect(recache.status).toBe(200);
    const before = await scrape(daemon);
    expect([before.status, metricValue(before.text, QUEUED)]).toEqual([200, 2]);

    await redis.stop();
    for (const base of [daemon, api]) {
      const scraping = scrape(base);
      // At once: by the store read's timeout at the latest.
      const fast = await settlesBefore(scraping, SCRAPE_READ_TIMEOUT_MS + 1_000);
      expect({ base, status: (await scraping).status, fast }).toEqual({ base, status: 200, fast: true });
    }
    expect(metricValue((await scrape(daemon)).text, QUEUED)).toBe(2);
  }, 60_000);

  it('logs the failed request with its id, method and route template (never its token)', async () => {
    const daemonFailure = await fetch(`${daemon}/internal/cache/recache`, {
      method: 'POST',
      headers: { ...daemonHeaders, 'x-request-id': 'ops-trace-daemon-1' },
      body: JSON.stringify({ host_id: 1, urls: ['https://www.example.com/b'], priority: 'normal' }),
    });
    expect(daemonFailure.status).toBe(500);
    expect(daemonFailure.headers.get('x-request-id')).toBe('ops-trace-daemon-1');
    const publicFailure = await fetch(`${api}/api/websites/demo/cache/recache`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'ops-trace-public-1' },
      body: JSON.stringify({ urls: ['https://www.example.com/c'] }),
    });
    expect(publicFailure.status).toBeGreaterThanOrEqual(500);
    expect(publicFailure.headers.get('x-request-id')).toBe('ops-trace-public-1');

    const errorOf = (msg: string) => lines.find((l) => l.msg === msg);
    expect(errorOf('daemon request failed')).toMatchObject({ reqId: 'ops-trace-daemon-1', method: 'POST', route: '/internal/cache/recache' });
    expect(errorOf('public api request failed')).toMatchObject({ reqId: 'ops-trace-public-1', method: 'POST', route: '/api/websites/:website/cache/recache' });
    expect(lines.find((l) => l.msg === 'request' && l.reqId === 'ops-trace-public-1')).toMatchObject({ status: publicFailure.status, route: '/api/websites/:website/cache/recache' });
    expect(JSON.stringify(lines)).not.toContain(token);
  }, 60_000);
});
