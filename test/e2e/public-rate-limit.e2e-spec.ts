import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, RuntimeMode, TestClock, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

const WINDOW_MS = 60_000;

describe.each<RuntimeMode>(['standalone', 'cluster'])('public API rate limits (%s mode)', (mode) => {
  let running: RunningApps;
  let api: string;
  // 10 s into a window, so a test never straddles two.
  const clock = new TestClock(Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS + 10_000);

  beforeAll(async () => {
    const config = testConfig(mode, { scheduler: { enabled: false }, rate_limit: { requests_per_window: 3, window_seconds: 60 } });
    running = await startApps(standaloneApps, config, createLogger('warn', `e2e-public-rate-limit-${mode}`), clock);
    api = running.urls['public-api']!;
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const discover = (token: string) => fetch(`${api}/api/websites/demo/data-explorer`, { headers: { authorization: `Bearer ${token}` } });
  const recache = (token: string) =>
    fetch(`${api}/api/websites/demo/cache/recache`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ urls: ['https://www.example.com/r'] }) });

  it('counts every /api/ request of a token, reports RateLimit-* headers, and answers 429 with Retry-After when over', async () => {
    const { token } = await issueToken(api, { user: 'rl-1', website: 'demo', role: 'manager' });
    const first = await discover(token);
    expect(first.status).toBe(200);
    expect([first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining'), first.headers.get('ratelimit-reset')]).toEqual(['3', '2', '50']);
    expect((await recache(token)).headers.get('ratelimit-remaining')).toBe('1');
    // A refused body still counts: the limit is on requests.
    const invalid = await fetch(`${api}/api/websites/demo/cache/invalidate`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect([invalid.status, invalid.headers.get('ratelimit-remaining')]).toEqual([400, '0']);

    const refused = await recache(token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(await jsonOf(refused)).toEqual({ code: 'RATE_LIMITED', message: 'rate limit of 3 requests per 60 s exceeded for this token; retry in 50 s' });
    expect((await discover(token)).status).toBe(429);
  });

  it('keeps each token to its own count, and opens again in the next window', async () => {
    const { token: a } = await issueToken(api, { user: 'rl-2', website: 'demo', role: 'readonly' });
    const { token: b } = await issueToken(api, { user: 'rl-2', website: 'demo', role: 'readonly' });
    for (let i = 0; i < 3; i += 1) expect((await discover(a)).status).toBe(200);
    expect((await discover(a)).status).toBe(429);
    expect((await discover(b)).status).toBe(200);
    clock.advance(WINDOW_MS);
    const again = await discover(a);
    expect([again.status, again.headers.get('ratelimit-remaining')]).toEqual([200, '2']);
  });

  it('answers 401 for a bad token without counting anything, and leaves health and the document open', async () => {
    expect((await discover('bpc_tok_0000000000000000_' + 'a'.repeat(43))).status).toBe(401);
    expect((await fetch(`${api}/docs/openapi.json`)).status).toBe(200);
    expect((await fetch(`${api}/health/live`)).headers.get('ratelimit-limit')).toBeNull();
  });
});
