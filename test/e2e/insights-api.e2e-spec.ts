import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const HOUR = 3_600_000;

/** The insights through the real service: authentication, roles, the platform module, bodies, and the explorer's figures over HTTP. */
describe('insights API (standalone)', () => {
  let running: RunningApps;
  let api: string;
  let token: string;

  beforeAll(async () => {
    const config = testConfig('standalone', {
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'off', host_id: 2, account_id: 'other', platform_module: false },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-insights'));
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' }));
    const now = Date.now();
    const events = [
      botRequest('demo', new Date(now - 2 * HOUR), { url: 'https://www.example.com/a', botName: 'Googlebot', cacheStatus: 'hit', serveTimeMs: 10 }),
      botRequest('demo', new Date(now - 3 * HOUR), { url: 'https://www.example.com/a', botName: 'Bingbot', cacheStatus: 'miss', statusCode: 504, serveTimeMs: 8000, snapshotAgeS: null }),
      botRequest('demo', new Date(now - 4 * HOUR), { url: 'https://www.example.com/b', botName: 'Googlebot', cacheStatus: 'stale', statusCode: 404, serveTimeMs: 30 }),
      // Only in the previous 24 hours: a lost page.
      botRequest('demo', new Date(now - 30 * HOUR), { url: 'https://www.example.com/gone', botName: 'Googlebot', cacheStatus: 'hit', serveTimeMs: 12 }),
    ];
    await recordAndWait(running, events, 'demo', events.length);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const post = (path: string, body: unknown, bearer: string | null = token, website = 'demo') =>
    fetch(`${api}/api/websites/${website}/insights/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) },
      body: JSON.stringify(body),
    });

  it('answers a readonly user the summary of 24h against the 24 hours before', async () => {
    const response = await post('summary', { period: '24h' });
    expect(response.status).toBe(200);
    const { data, meta } = await jsonOf(response);
    expect(data).toEqual({
      current: { requests: 3, pages: 2, hitRate: 0.3333, serveTimeP50Ms: 30, serveTimeP95Ms: 8000, share4xx: 0.3333, share5xx: 0.3333, rendersFailed: 1 },
      previous: { requests: 1, pages: 1, hitRate: 1, serveTimeP50Ms: 12, serveTimeP95Ms: 12, share4xx: 0, share5xx: 0, rendersFailed: 0 },
      newPages: 2,
      lostPages: 1,
    });
    expect(meta).toMatchObject({ period: '24h', window: { start: expect.any(String), end: expect.any(String) }, compPeriod: expect.any(String) });
  });

  it('answers a timeseries split by bot family, one point per hour', async () => {
    const response = await post('timeseries', { metric: 'requests', period: '24h', splitBy: 'bot_family' });
    expect(response.status).toBe(200);
    const { data, meta } = await jsonOf(response);
    expect(meta).toMatchObject({ metric: 'requests', interval: 'hour', splitBy: 'bot_family', period: '24h' });
    expect(data.series.map((s: { key: string }) => s.key)).toEqual(['Googlebot', 'Bingbot']);
    expect(data.series[0].points).toHaveLength(25);
    expect(data.series[0].points.reduce((sum: number, p: { v: number }) => sum + p.v, 0)).toBe(2);
  });

  it('answers a readonly user who read the website: events recorded before the bot categories count as other', async () => {
    const response = await post('bot-categories', { period: '24h' });
    expect(response.status).toBe(200);
    const { data, meta } = await jsonOf(response);
    expect(data).toEqual({ requests: 3, categories: [{ category: 'other', requests: 3, share: 1, pages: 2 }], aiAgents: { requests: 0, share: 0, pages: 0 }, topAiPages: [] });
    expect(meta).toEqual({ period: '24h', window: { start: expect.any(String), end: expect.any(String) } });
  });

  it('refuses bad bodies with 400 VALIDATION_FAILED naming the field, unknown keys included', async () => {
    const cases: [string, unknown, string][] = [
      ['summary', { perPage: 10 }, 'perPage'],
      ['summary', { period: 'yesterday' }, 'period'],
      ['summary', { filters: [{ field: 'url', op: 'gt', val: 1 }] }, 'filters[0].op'],
      ['timeseries', {}, 'metric'],
      ['timeseries', { metric: 'requests', interval: 'minute' }, 'interval'],
      ['timeseries', { metric: 'clicks', period: '24h' }, 'period'],
      ['timeseries', { metric: 'requests', splitBy: 'country' }, 'splitBy'],
      ['bot-categories', { compPeriod: '7d' }, 'compPeriod'],
      ['bot-categories', { period: 7 }, 'period'],
      ['bot-categories', { filters: [{ field: 'bot_category', op: 'eq', val: 'robot' }] }, 'filters[0].val'],
      ['bot-categories', { filters: [{ field: 'verified', op: 'regex', val: '.*' }] }, 'filters[0].op'],
    ];
    for (const [path, body, field] of cases) {
      const response = await post(path, body);
      expect({ path, body, status: response.status, answer: await jsonOf(response) }).toEqual({ path, body, status: 400, answer: { code: 'VALIDATION_FAILED', message: expect.any(String), field } });
    }
  });

  it('needs a token, a role on the website and its platform module', async () => {
    expect((await post('summary', {}, null)).status).toBe(401);
    expect((await post('bot-categories', {}, null)).status).toBe(401);
    const categories = await post('bot-categories', {}, token, 'off');
    expect({ status: categories.status, code: (await jsonOf(categories)).code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    const other = await post('timeseries', { metric: 'requests' }, token, 'off');
    expect({ status: other.status, code: (await jsonOf(other)).code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    const { token: offToken } = await issueToken(api, { user: 'olga', website: 'off', role: 'admin' });
    const disabled = await post('summary', {}, offToken, 'off');
    expect({ status: disabled.status, code: (await jsonOf(disabled)).code }).toEqual({ status: 403, code: 'FEATURE_DISABLED' });
  });
});
