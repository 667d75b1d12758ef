import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, RuntimeMode, TestClock, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { adminHeaders, issueToken } from './explorer-fixtures';

describe.each<RuntimeMode>(['standalone', 'cluster'])('public API authentication and error envelope (%s mode)', (mode) => {
  let running: RunningApps;
  let api: string;
  /** Token expiry is read on this clock: the test moves it past an expiry instead of waiting for one. */
  const clock = new TestClock();

  beforeAll(async () => {
    const config = testConfig(mode, {
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'acme' },
        { id: 'off', host_id: 2, account_id: 'other', platform_module: false },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', `e2e-explorer-auth-${mode}`), clock);
    api = running.urls['public-api']!;
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const discover = (website: string, token?: string) =>
    fetch(`${api}/api/websites/${website}/data-explorer`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  it('refuses a missing, malformed or unknown token with 401 UNAUTHENTICATED in {code, message}', async () => {
    const missing = await discover('demo');
    expect(missing.status).toBe(401);
    expect(await jsonOf(missing)).toEqual({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/Authorization/) });
    const unknown = await discover('demo', 'bpc_tok_0000000000000000_' + 'a'.repeat(43));
    expect(unknown.status).toBe(401);
    expect((await jsonOf(unknown)).code).toBe('UNAUTHENTICATED');
    const garbage = await discover('demo', "' OR 1=1 --");
    expect(garbage.status).toBe(401);
    // Authentication comes before the body is read: no token and broken JSON is still a 401.
    const broken = await fetch(`${api}/api/websites/demo/data-explorer/events/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"columns":' });
    expect(broken.status).toBe(401);
  });

  it('answers 403 before reading the body when the user has no role on the website in the path', async () => {
    const { token } = await issueToken(api, { user: 'dora', website: 'demo', role: 'readonly' });
    for (const website of ['shop', 'no-such-website']) {
      const response = await fetch(`${api}/api/websites/${website}/data-explorer/events/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"columns":',
      });
      expect({ website, status: response.status, code: (await jsonOf(response)).code }).toEqual({ website, status: 403, code: 'FORBIDDEN' });
    }
  });

  it('issues a token (shown once, hashed in the log), lets readonly read, and refuses it after revocation', async () => {
    const { tokenId, token } = await issueToken(api, { user: 'alice', website: 'demo', role: 'readonly' });
    expect(token).toMatch(/^bpc_tok_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect((await discover('demo', token)).status).toBe(200);

    const list = await jsonOf(await fetch(`${api}/internal/admin/tokens`, { headers: adminHeaders }));
    const listed = list.tokens.find((t: { tokenId: string }) => t.tokenId === tokenId);
    expect(listed).toMatchObject({ userId: 'alice', roles: { demo: 'readonly' }, revokedAt: null, expiresAt: null });
    expect(JSON.stringify(list)).not.toContain(token);

    const revoked = await fetch(`${api}/internal/admin/tokens/${tokenId}`, { method: 'DELETE', headers: { 'x-internal-auth': adminHeaders['x-internal-auth'] } });
    expect(revoked.status).toBe(200);
    const after = await discover('demo', token);
    expect(after.status).toBe(401);
    expect(await jsonOf(after)).toEqual({ code: 'UNAUTHENTICATED', message: 'API token revoked' });
  });

  it('refuses a website the user has no role on (403 FORBIDDEN), unknown websites alike, and a disabled module (403 FEATURE_DISABLED)', async () => {
    const { token } = await issueToken(api, { user: 'bob', website: 'demo', role: 'admin' });
    const other = await discover('shop', token);
    expect(other.status).toBe(403);
    expect((await jsonOf(other)).code).toBe('FORBIDDEN');
    expect((await discover('nope', token)).status).toBe(403);

    const { token: offToken } = await issueToken(api, { user: 'carol', website: 'off', role: 'admin' });
    const off = await discover('off', offToken);
    expect(off.status).toBe(403);
    expect(await jsonOf(off)).toEqual({ code: 'FEATURE_DISABLED', message: 'the platform module is not enabled on website off' });
  });

  it('refuses an expired token; expiry must be in the future when issuing', async () => {
    const past = await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ user: 'dave', website: 'demo', role: 'readonly', expires: '2001-01-01' }) });
    expect(past.status).toBe(400);
    expect(await jsonOf(past)).toMatchObject({ code: 'VALIDATION_FAILED', field: 'expiresAt' });
    const { token } = await issueToken(api, { user: 'dave', website: 'demo', role: 'readonly', expires: new Date(clock.now() + 60_000).toISOString() });
    expect((await discover('demo', token)).status).toBe(200);
    clock.advance(60_001);
    const expired = await discover('demo', token);
    expect(expired.status).toBe(401);
    expect((await jsonOf(expired)).message).toBe('API token expired');
  });

  it('guards the admin endpoints with X-Internal-Auth', async () => {
    const response = await fetch(`${api}/internal/admin/tokens`, { headers: { 'x-internal-auth': 'wrong' } });
    expect(response.status).toBe(401);
    expect(await jsonOf(response)).toEqual({ code: 'UNAUTHENTICATED', message: 'missing or invalid X-Internal-Auth' });
    // Before the body is read: broken JSON without the key is a 401, not a 400.
    const broken = await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect({ status: broken.status, body: await jsonOf(broken) }).toEqual({ status: 401, body: { code: 'UNAUTHENTICATED', message: 'missing or invalid X-Internal-Auth' } });
  });

  it('answers unknown paths with 404 in the same envelope', async () => {
    const response = await fetch(`${api}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect((await jsonOf(response)).code).toBe('NOT_FOUND');
  });

  it('answers a known path asked with another method 405 with Allow, in the same envelope', async () => {
    const { token } = await issueToken(api, { user: 'mona', website: 'demo', role: 'readonly' });
    for (const [method, path, allow] of [
      ['GET', '/api/websites/demo/data-explorer/events/query', 'POST'],
      ['DELETE', '/api/websites/demo/cache/recache', 'POST'],
      ['POST', '/api/websites/demo/data-explorer', 'GET, HEAD'],
      ['PUT', '/docs/openapi.json', 'GET, HEAD'],
    ]) {
      const response = await fetch(`${api}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
      expect({ path, status: response.status, allow: response.headers.get('allow'), body: await jsonOf(response) }).toEqual({
        path,
        status: 405,
        allow,
        body: { code: 'METHOD_NOT_ALLOWED', message: `method ${method} is not allowed on this endpoint; allowed: ${allow}` },
      });
    }
  });

  it('refuses a body sent as anything but JSON with 400 naming the content type, form bodies included', async () => {
    const { token } = await issueToken(api, { user: 'omar', website: 'demo', role: 'readonly' });
    const query = `${api}/api/websites/demo/data-explorer/events/query`;
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', 'period=7d&sortDir=asc'],
      ['text/plain', '{"period":"7d"}'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="period"\r\n\r\n7d\r\n--x--'],
    ]) {
      const response = await fetch(query, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body });
      expect({ contentType, status: response.status, body: await jsonOf(response) }).toEqual({
        contentType,
        status: 400,
        body: { code: 'VALIDATION_FAILED', field: 'body', message: `wrong content type (Content-Type ${contentType}): send the body as JSON with Content-Type: application/json` },
      });
    }
    const json = await fetch(query, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' }, body: '{"period":"7d","sortDir":"asc"}' });
    expect(json.status).toBe(200);
  });
});
