import { parseSetCookie } from 'cookie';
import type { AppConfig } from '@bpc/config';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { freePort, jsonOf, removeTestDataDir, TEST_INTERNAL_KEY, TestClock, testConfig, until } from '@bpc/testing';
import { runCli } from '../../apps/cli/src/run-cli';
import { publicApiApp } from '../../apps/public-api/src/public-api.app';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { IdentityIndex, linkIdOf, MAX_LIVE_SESSIONS_PER_TOKEN } from '@bpc/identity';
import { adminHeaders, issueToken } from './explorer-fixtures';

describe('dashboard sign-in and sessions against the standalone service', () => {
  let running: RunningApps;
  let api: string;
  /** Link expiry is read on this clock: the test moves it past an expiry instead of waiting. */
  const clock = new TestClock();

  beforeAll(async () => {
    const config = testConfig('standalone', {
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'acme', platform_module: false },
      ],
      dashboard: { public_edge_url: 'https://edge.example.net' },
    });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-dashboard-session'), clock);
    api = running.urls['public-api']!;
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const json = { 'content-type': 'application/json' };
  const signIn = (body: unknown) => fetch(`${api}/api/session`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  const withCookie = (secret: string, extra: Record<string, string> = {}) => ({ cookie: `bpc_session=${secret}`, ...extra });
  async function signedIn(body: unknown): Promise<{ secret: string; csrfToken: string; view: Record<string, unknown> }> {
    const response = await signIn(body);
    expect(response.status).toBe(200);
    const cookie = parseSetCookie(response.headers.get('set-cookie')!);
    const view = await jsonOf(response);
    return { secret: cookie.value!, csrfToken: view.csrfToken, view };
  }
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli([...argv, '--url', api], { env: { BPC_INTERNAL_KEY: TEST_INTERNAL_KEY }, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const linkSecretOf = (url: string) => /#link=(bpc_lnk_\S+)$/.exec(url)![1];

  it('exchanges a token for an HttpOnly SameSite=Strict cookie that reads the session, the websites and the Data Explorer', async () => {
    const { token } = await issueToken(api, { user: 'alice', website: 'demo', role: 'readonly' });
    const response = await signIn({ token });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get('set-cookie')!;
    expect(parseSetCookie(setCookie)).toEqual({ name: 'bpc_session', value: expect.stringMatching(/^bpc_ses_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/), maxAge: 12 * 3600, path: '/', httpOnly: true, sameSite: 'strict' });
    expect(setCookie).not.toMatch(/Secure/i);
    const secret = parseSetCookie(setCookie).value!;
    const view = await jsonOf(response);
    const demo = { id: 'demo', role: 'readonly', platformModule: true, hostnames: ['www.example.com'], edgeUrl: 'https://edge.example.net' };
    expect(view).toEqual({ userId: 'alice', via: 'token', expiresAt: new Date(clock.now() + 12 * 3_600_000).toISOString(), csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/), websites: [demo] });
    expect(JSON.stringify(view)).not.toContain(token);

    expect(response.headers.get('cache-control')).toBe('no-store');
    const session = await fetch(`${api}/api/session`, { headers: withCookie(secret) });
    expect({ status: session.status, body: await jsonOf(session) }).toEqual({ status: 200, body: view });
    expect(session.headers.get('cache-control')).toBe('no-store');
    const websites = await fetch(`${api}/api/websites`, { headers: withCookie(secret) });
    expect(await jsonOf(websites)).toEqual({ websites: [demo] });
    const byBearer = await fetch(`${api}/api/websites`, { headers: { authorization: `Bearer ${token}` } });
    expect(await jsonOf(byBearer)).toEqual({ websites: [demo] });
    const discovery = await fetch(`${api}/api/websites/demo/data-explorer`, { headers: withCookie(secret) });
    expect(discovery.status).toBe(200);
    expect((await jsonOf(discovery)).explorers.length).toBeGreaterThan(0);
    // Role rules unchanged: no role on shop.
    expect((await fetch(`${api}/api/websites/shop/data-explorer`, { headers: withCookie(secret) })).status).toBe(403);
    // The session is counted against its token's rate limit.
    expect(discovery.headers.get('ratelimit-limit')).not.toBeNull();
    // GET /api/session is about the cookie: a bearer token alone has no session.
    expect((await fetch(`${api}/api/session`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('refuses a change signed in by cookie without X-CSRF-Token (403 naming the header) and accepts it with the token', async () => {
    const { token } = await issueToken(api, { user: 'carl', website: 'demo', role: 'readonly' });
    const { secret, csrfToken } = await signedIn({ token });
    const query = (headers: Record<string, string>) =>
      fetch(`${api}/api/websites/demo/data-explorer/events/query`, { method: 'POST', headers: { ...json, ...withCookie(secret), ...headers }, body: JSON.stringify({ period: '7d', perPage: 1 }) });
    const refused = await query({});
    expect(refused.status).toBe(403);
    expect(await jsonOf(refused)).toEqual({ code: 'FORBIDDEN', message: expect.stringMatching(/CSRF/), field: 'X-CSRF-Token' });
    expect((await query({ 'x-csrf-token': 'f'.repeat(64) })).status).toBe(403);
    const accepted = await query({ 'x-csrf-token': csrfToken });
    expect(accepted.status).toBe(200);
    expect((await jsonOf(accepted)).meta).toBeDefined();
  });

  it('signs out for good: DELETE needs the CSRF token, answers 204 and clears the cookie; the cookie is refused after', async () => {
    const { token } = await issueToken(api, { user: 'dina', website: 'demo', role: 'manager' });
    const { secret, csrfToken } = await signedIn({ token });
    expect((await fetch(`${api}/api/session`, { method: 'DELETE', headers: withCookie(secret) })).status).toBe(403);
    const out = await fetch(`${api}/api/session`, { method: 'DELETE', headers: withCookie(secret, { 'x-csrf-token': csrfToken }) });
    expect(out.status).toBe(204);
    expect(parseSetCookie(out.headers.get('set-cookie')!)).toMatchObject({ name: 'bpc_session', value: '', maxAge: 0, path: '/', httpOnly: true, sameSite: 'strict' });
    const after = await fetch(`${api}/api/session`, { headers: withCookie(secret) });
    expect({ status: after.status, body: await jsonOf(after) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: 'dashboard session signed out: sign in again' } });
    expect((await fetch(`${api}/api/websites/demo/data-explorer`, { headers: withCookie(secret) })).status).toBe(401);
    // The token itself still works: signing out ends the session only.
    expect((await fetch(`${api}/api/websites/demo/data-explorer`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('ends the session when the token it was opened with is revoked', async () => {
    const { token, tokenId } = await issueToken(api, { user: 'erin', website: 'demo', role: 'readonly' });
    const { secret } = await signedIn({ token });
    expect((await fetch(`${api}/api/session`, { headers: withCookie(secret) })).status).toBe(200);
    const revoked = await fetch(`${api}/internal/admin/tokens/${tokenId}`, { method: 'DELETE', headers: { 'x-internal-auth': TEST_INTERNAL_KEY } });
    expect(revoked.status).toBe(200);
    const after = await fetch(`${api}/api/websites/demo/data-explorer`, { headers: withCookie(secret) });
    expect(after.status).toBe(401);
    expect((await jsonOf(after)).message).toMatch(/revoked/);
    const again = await signIn({ token });
    expect({ status: again.status, body: await jsonOf(again) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: 'API token revoked', field: 'token' } });
  });

  it('refuses bad sign-in bodies with 400 naming the field, unknown tokens with 401 naming token', async () => {
    const cases: [unknown, string][] = [
      [{}, 'token'],
      [{ token: 5 }, 'token'],
      [{ link: null }, 'link'],
      [{ token: 'a', link: 'b' }, 'link'],
      [{ token: 'a', extra: 1 }, 'extra'],
      [[], 'body'],
    ];
    for (const [body, field] of cases) {
      const response = await signIn(body);
      expect({ body, status: response.status, answer: await jsonOf(response) }).toEqual({ body, status: 400, answer: { code: 'VALIDATION_FAILED', message: expect.any(String), field } });
    }
    const broken = await fetch(`${api}/api/session`, { method: 'POST', headers: json, body: '{"token":' });
    expect(broken.status).toBe(400);
    const unknown = await signIn({ token: 'bpc_tok_0000000000000000_' + 'a'.repeat(43) });
    expect({ status: unknown.status, body: await jsonOf(unknown) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: 'unknown API token', field: 'token' } });
    expect((await fetch(`${api}/api/session`)).status).toBe(401);
    expect((await fetch(`${api}/api/session`, { headers: withCookie('bpc_ses_0000000000000000_' + 'a'.repeat(43)) })).status).toBe(401);
  });

  it('refuses garbage and oversize credentials cheaply with 400 naming the field, and bodies a cross-site form could send', async () => {
    const refusal = async (response: Response) => ({ status: response.status, body: await jsonOf(response) });
    const validation = (field: string) => ({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.any(String), field } });
    expect(await refusal(await signIn({ token: 'a' }))).toEqual(validation('token'));
    expect(await refusal(await signIn({ token: 'x'.repeat(201) }))).toEqual(validation('token'));
    expect(await refusal(await signIn({ link: 'bpc_tok_0000000000000000_' + 'a'.repeat(43) }))).toEqual(validation('link'));
    // Larger than a sign-in body can be: refused by Content-Length before it is read, or once it grows past 4 KiB when chunked.
    expect(await refusal(await signIn({ token: 'x'.repeat(5000) }))).toEqual(validation('body'));
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i += 1) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"token":"' : 'x'.repeat(1000)));
        controller.close();
      },
    });
    const chunked = await fetch(`${api}/api/session`, { method: 'POST', headers: json, body: chunks, duplex: 'half' } as RequestInit);
    expect(await refusal(chunked)).toEqual(validation('body'));
    // A cross-site form can only send form or text bodies: no session for those.
    const form = await fetch(`${api}/api/session`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=bpc_tok_x' });
    expect(form.status).toBe(400);
    expect(form.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a request carrying two bpc_session cookies (a planted one could sign the victim into another session)', async () => {
    const { token } = await issueToken(api, { user: 'kim', website: 'demo', role: 'readonly' });
    const { secret } = await signedIn({ token });
    const other = await signedIn({ token });
    expect((await fetch(`${api}/api/session`, { headers: { cookie: `theme=dark; bpc_session=${secret}` } })).status).toBe(200);
    const both = await fetch(`${api}/api/session`, { headers: { cookie: `bpc_session=${other.secret}; theme=dark; bpc_session=${secret}` } });
    expect({ status: both.status, body: await jsonOf(both) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: 'several bpc_session cookies: sign in again' } });
    // With a bearer token the cookies are not read at all.
    expect((await fetch(`${api}/api/websites`, { headers: { authorization: `Bearer ${token}`, cookie: `bpc_session=a; bpc_session=b` } })).status).toBe(200);
  });

  it('asks for the CSRF token on every change signed in by cookie: the search-performance import and recache too', async () => {
    const { token } = await issueToken(api, { user: 'lou', website: 'demo', role: 'manager' });
    const { secret, csrfToken } = await signedIn({ token });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api}/api/websites/demo/${path}`, { method: 'POST', headers: { ...json, ...withCookie(secret), ...headers }, body: JSON.stringify(body) });
    const csv = { format: 'pages_csv', date: '2026-03-02', content: 'Top pages,Clicks,Impressions,CTR,Position\nhttps://www.example.com/a,1,10,10%,3\n' };
    const recache = { urls: ['https://www.example.com/csrf'] };
    for (const [path, body] of [['search-performance/import', csv], ['cache/recache', recache]] as const) {
      const refused = await post(path, body);
      expect({ path, status: refused.status, field: (await jsonOf(refused)).field }).toEqual({ path, status: 403, field: 'X-CSRF-Token' });
      expect({ path, status: (await post(path, body, { 'x-csrf-token': csrfToken })).status }).toEqual({ path, status: 200 });
    }
  });

  it(`keeps at most ${MAX_LIVE_SESSIONS_PER_TOKEN} live sessions per token: a new sign-in ends the oldest`, async () => {
    const { token } = await issueToken(api, { user: 'max', website: 'demo', role: 'readonly' });
    const secrets: string[] = [];
    for (let i = 0; i <= MAX_LIVE_SESSIONS_PER_TOKEN; i += 1) secrets.push((await signedIn({ token })).secret);
    const statuses = await Promise.all(secrets.map((secret) => fetch(`${api}/api/session`, { headers: withCookie(secret) }).then((r) => r.status)));
    expect(statuses).toEqual([401, ...secrets.slice(1).map(() => 200)]);
  });

  it('prints a one-time sign-in link; the first use opens a session, the second is refused; a user without roles gets none', async () => {
    await issueToken(api, { user: 'fay', website: 'shop', role: 'manager' });
    const printed = await cli('dashboard', 'link', '--user', 'fay');
    expect(printed.code).toBe(0);
    const url = /(http\S+)/.exec(printed.out)![1];
    expect(url).toMatch(new RegExp(`^${api.replace(/[.]/g, '\\.')}/sign-in#link=bpc_lnk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$`));
    const link = linkSecretOf(url);
    const first = await signedIn({ link });
    expect(first.view).toMatchObject({ userId: 'fay', via: 'link', websites: [{ id: 'shop', role: 'manager', platformModule: false, hostnames: ['shop.example.org'] }] });
    expect((await fetch(`${api}/api/session`, { headers: withCookie(first.secret) })).status).toBe(200);
    const second = await signIn({ link });
    expect({ status: second.status, body: await jsonOf(second) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/already used/), field: 'link' } });

    const nobody = await fetch(`${api}/internal/admin/dashboard-links`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ user: 'nobody' }) });
    expect({ status: nobody.status, body: await jsonOf(nobody) }).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'user' } });
    expect((await cli('dashboard', 'link', '--user', 'nobody')).code).not.toBe(0);
  });

  it('lets exactly one of two concurrent uses of a link through', async () => {
    await issueToken(api, { user: 'gus', website: 'demo', role: 'readonly' });
    const issued = await jsonOf(await fetch(`${api}/internal/admin/dashboard-links`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ user: 'gus' }) }));
    const link = linkSecretOf(issued.url);
    const answers = await Promise.all([signIn({ link }), signIn({ link }), signIn({ link })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
  });

  it('refuses a session past its expiry (dashboard.session_ttl_hours)', async () => {
    const { token } = await issueToken(api, { user: 'ivy', website: 'demo', role: 'readonly' });
    const { secret } = await signedIn({ token });
    clock.advance(12 * 3_600_000);
    const expired = await fetch(`${api}/api/session`, { headers: withCookie(secret) });
    expect({ status: expired.status, body: await jsonOf(expired) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: 'dashboard session expired: sign in again' } });
  });

  it('refuses an expired link with 401 naming link', async () => {
    await issueToken(api, { user: 'hal', website: 'demo', role: 'readonly' });
    const issued = await jsonOf(await fetch(`${api}/internal/admin/dashboard-links`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ user: 'hal' }) }));
    expect(issued.expiresAt).toBe(new Date(clock.now() + 15 * 60_000).toISOString());
    clock.advance(15 * 60_000);
    const expired = await signIn({ link: linkSecretOf(issued.url) });
    expect({ status: expired.status, body: await jsonOf(expired) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/expired/), field: 'link' } });
  });
});

describe('sign-in against the token rate limit', () => {
  const WINDOW_MS = 60_000;
  let running: RunningApps;
  let api: string;
  // 10 s into a window, so the test never straddles two.
  const clock = new TestClock(Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + WINDOW_MS + 10_000);

  beforeAll(async () => {
    const config = testConfig('standalone', { scheduler: { enabled: false }, rate_limit: { requests_per_window: 3, window_seconds: 60 } });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-dashboard-sign-in-rate-limit'), clock);
    api = running.urls['public-api']!;
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const signIn = (body: unknown) => fetch(`${api}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('counts each sign-in with a genuine token against that token, sharing its window with its bearer calls; 429 when over', async () => {
    const { token } = await issueToken(api, { user: 'rl-s', website: 'demo', role: 'readonly' });
    const first = await signIn({ token });
    expect([first.status, first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining'), first.headers.get('ratelimit-reset')]).toEqual([200, '3', '2', '50']);
    expect((await fetch(`${api}/api/websites`, { headers: { authorization: `Bearer ${token}` } })).headers.get('ratelimit-remaining')).toBe('1');
    expect((await signIn({ token })).headers.get('ratelimit-remaining')).toBe('0');
    const refused = await signIn({ token });
    expect([refused.status, refused.headers.get('retry-after'), refused.headers.get('set-cookie')]).toEqual([429, '50', null]);
    expect(await jsonOf(refused)).toEqual({ code: 'RATE_LIMITED', message: 'rate limit of 3 requests per 60 s exceeded for this token; retry in 50 s' });
    // Unknown and malformed tokens count against nothing: 401 / 400, no RateLimit-* headers.
    const unknown = await signIn({ token: 'bpc_tok_0000000000000000_' + 'a'.repeat(43) });
    expect([unknown.status, unknown.headers.get('ratelimit-limit')]).toEqual([401, null]);
    clock.advance(WINDOW_MS);
    expect((await signIn({ token })).status).toBe(200);
  });
});

/** Cluster mode: two public-api replicas on one Kafka namespace learn each other's sessions and links from the identity topic. */
describe('dashboard sessions across two public-api replicas (cluster mode)', () => {
  // Two replicas on Kafka start slower than e2e-setup's 30 s allows on a busy machine.
  const CLUSTER_TIMEOUT_MS = 60_000;
  let a: RunningApps;
  let b: RunningApps;
  const urlOf = (running: RunningApps) => running.urls['public-api']!;
  const withPort = async (config: AppConfig): Promise<AppConfig> => ({ ...config, listen: { ...config.listen, public_api: await freePort() } });
  const poll = { timeoutMs: 20_000, intervalMs: 50 };
  const signIn = (running: RunningApps, body: unknown) =>
    fetch(`${urlOf(running)}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const sessionStatus = (running: RunningApps, secret: string) => fetch(`${urlOf(running)}/api/session`, { headers: { cookie: `bpc_session=${secret}` } }).then((r) => r.status);

  beforeAll(async () => {
    const config = await withPort(testConfig('cluster', { scheduler: { enabled: false } }));
    a = await startApps([publicApiApp], config, createLogger('silent', 'dashboard-cluster-a'));
    b = await startApps([publicApiApp], await withPort(config), createLogger('silent', 'dashboard-cluster-b'));
  }, CLUSTER_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    if (a) removeTestDataDir(a.runtime.config.data_dir);
  }, CLUSTER_TIMEOUT_MS);

  it('a session opened on one replica works on the other, and signing out there ends it on both', async () => {
    const { token } = await issueToken(urlOf(a), { user: 'ann', website: 'demo', role: 'readonly' });
    const response = await signIn(a, { token });
    expect(response.status).toBe(200);
    const secret = parseSetCookie(response.headers.get('set-cookie')!).value!;
    const { csrfToken } = await jsonOf(response);
    await until(() => sessionStatus(b, secret), (status) => status === 200, { ...poll, what: 'the session on replica B' });
    const out = await fetch(`${urlOf(b)}/api/session`, { method: 'DELETE', headers: { cookie: `bpc_session=${secret}`, 'x-csrf-token': csrfToken } });
    expect(out.status).toBe(204);
    expect(await sessionStatus(b, secret)).toBe(401);
    await until(() => sessionStatus(a, secret), (status) => status === 401, { ...poll, what: 'the sign-out on replica A' });
  }, CLUSTER_TIMEOUT_MS);

  it('a link used on both replicas at once opens exactly one session', async () => {
    await issueToken(urlOf(a), { user: 'bea', website: 'demo', role: 'readonly' });
    const issued = await jsonOf(
      await fetch(`${urlOf(a)}/internal/admin/dashboard-links`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ user: 'bea' }) }),
    );
    const link = /#link=(\S+)$/.exec(issued.url)![1];
    // B must know the link before the race, or it would refuse it as unknown without taking part.
    const indexOfB = b.apps['public-api']!.get(IdentityIndex);
    await until(async () => indexOfB.view().links.has(linkIdOf(link)!), (known) => known, { ...poll, what: 'the link on replica B' });
    const answers = await Promise.all([signIn(a, { link }), signIn(b, { link }), signIn(a, { link }), signIn(b, { link })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
  }, CLUSTER_TIMEOUT_MS);
});
