import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AlertDeliverer, AlertDeliveriesProjector, AlertEvaluator, alertTargets, checkAlertTargets, verifyAlertSignature, WebhookClient } from '@bpc/alerts';
import { type AppConfig, ConfigError, validateConfig } from '@bpc/config';
import { newAlertRaised, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { dnsResolve } from '@bpc/egress';
import { jsonOf, RuntimeMode, spawnService, startTestDnsServer, TestClock, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const SECRET = 'test-webhook-secret-0123456789';

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  readonly body: { id: string; type: string; website: string; occurredAt: string; data: Record<string, unknown> };
}

/** A webhook receiver on loopback: records every POST and answers each path's status. */
async function startReceiver(statusOf: (path: string) => number): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ path: request.url ?? '', headers: request.headers, raw, body: JSON.parse(raw) });
      response.statusCode = statusOf(request.url ?? '');
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe.each<RuntimeMode>(['standalone', 'cluster'])('website alert webhooks (%s mode)', (mode) => {
  let clock: TestClock;
  let running: RunningApps;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let api: string;
  let readonlyToken: string;

  const alertsOf = (path: string, extra: Record<string, unknown> = {}) => ({ webhook_url: `${receiver.url}${path}`, secret: SECRET, allow_internal_target: true, ...extra });
  const deliveries = async (website: string, query = '') => {
    const response = await fetch(`${api}/api/websites/${website}/alerts/deliveries${query}`, { headers: { authorization: `Bearer ${readonlyToken}` } });
    return { status: response.status, body: await jsonOf(response) };
  };
  /** The delivery log as the API shows it, once the projection holds `count` tries of the website. */
  const deliveriesWhen = async (website: string, count: number) => {
    await until(async () => (await deliveries(website)).body.meta?.total === count, { timeoutMs: 20_000 });
    return (await deliveries(website)).body;
  };
  const renderFailures = (hostId: number, count: number, at: number) =>
    running.runtime.ports.explorerStore!.insert({
      table: 'render_outcomes',
      token: `alerts-test-${hostId}-${at}-${count}`,
      rows: Array.from({ length: count }, (_, i) => ({
        host_id: hostId, url: `https://www.example.com/p${i}`, dimension_id: 1, mode: 'render', trigger: 'recache_normal', outcome: i % 2 ? 'gave_up' : 'retry_scheduled',
        reason: 'timeout', status_code: 0, render_ms: 60_000, bytes: 0, attempt: 1, entry_id: `e${i}`, ts: new Date(at), event_id: `render-${hostId}-${at}-${i}`,
      })),
    });
  const evaluator = () => running.apps.projector!.get(AlertEvaluator);

  beforeAll(async () => {
    clock = new TestClock(Date.parse('2026-11-28T10:01:00.000Z'));
    receiver = await startReceiver((path) => (path === '/down' ? 503 : path === '/refuses' ? 400 : 200));
    const config = testConfig(mode, {
      scheduler: { enabled: false },
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme', alerts: alertsOf('/demo', { render_failures: { threshold: 3, window_minutes: 15 }, error_pages: { min_requests: 5, window_minutes: 60 } }) },
        { id: 'shop', host_id: 2, account_id: 'shops', alerts: alertsOf('/down', { render_failures: { threshold: 1, window_minutes: 15 }, export_finished: false }) },
        { id: 'outlet', host_id: 2, account_id: 'shops', alerts: alertsOf('/refuses', { render_failures: { threshold: 1, window_minutes: 15 }, export_finished: false }) },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', 'alerts'), clock);
    api = running.urls['public-api']!;
    readonlyToken = (await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' })).token;
    for (const website of ['shop', 'outlet']) await issueToken(api, { user: 'rita', website, role: 'readonly' });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    receiver?.server.close();
  });

  it('render failures past the threshold: one signed POST, verified by the receiver, once per window, in the delivery log', async () => {
    await renderFailures(1, 2, clock.now() - 60_000);
    expect(await evaluator().evaluate()).toEqual([]);
    await renderFailures(1, 1, clock.now() - 30_000);
    const [alert] = await evaluator().evaluate();
    expect(alert).toMatchObject({ id: 'render_failures:demo:2026-11-28T10:00:00.000Z', type: 'render_failures', data: { failures: 3, threshold: 3, topReasons: [{ reason: 'timeout', renders: 3 }] } });

    await until(() => receiver.received.some((r) => r.body.id === alert.id), { timeoutMs: 20_000 });
    const [post] = receiver.received.filter((r) => r.body.id === alert.id);
    expect(post.path).toBe('/demo');
    expect(post.headers['content-type']).toBe('application/json');
    expect(post.headers['x-bpc-alert-id']).toBe(alert.id);
    expect(post.headers['x-bpc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyAlertSignature(SECRET, post.raw, post.headers['x-bpc-signature'] as string, Math.floor(clock.now() / 1000))).toBe(true);
    expect(verifyAlertSignature('not-the-secret-at-all', post.raw, post.headers['x-bpc-signature'] as string, Math.floor(clock.now() / 1000))).toBe(false);
    expect(post.body).toEqual({ id: alert.id, type: 'render_failures', website: 'demo', occurredAt: '2026-11-28T10:01:00.000Z', data: alert.data });

    // Still true a minute later, in the same window: the same alert, not sent again.
    clock.advance(60_000);
    await renderFailures(1, 1, clock.now() - 10_000);
    expect(await evaluator().evaluate()).toEqual([]);
    const log = await deliveriesWhen('demo', 1);
    expect(log).toEqual({ data: [{ alertId: alert.id, type: 'render_failures', attempt: 1, status: 'delivered', httpStatus: 200, error: '', at: expect.any(String) }], meta: { page: 1, perPage: 50, total: 1, totalPages: 1 } });
    expect(receiver.received.filter((r) => r.body.id === alert.id)).toHaveLength(1);
  }, 60_000);

  it('a page bots request often turning to 404: a page_errors alert naming it', async () => {
    const now = clock.now();
    const popular = 'https://www.example.com/popular';
    const before = Array.from({ length: 5 }, (_, i) => botRequest('demo', new Date(now - 90 * 60_000 + i * 1000), { url: popular }));
    const after = [botRequest('demo', new Date(now - 5 * 60_000), { url: popular, statusCode: 404 })];
    const quiet = Array.from({ length: 2 }, (_, i) => botRequest('demo', new Date(now - 80 * 60_000 + i), { url: 'https://www.example.com/rare' }));
    await recordAndWait(running, [...before, ...after, ...quiet, botRequest('demo', new Date(now - 60_000), { url: 'https://www.example.com/rare', statusCode: 500 })], 'demo', 9);
    const fired = (await evaluator().evaluate()).filter((a) => a.type === 'page_errors');
    expect(fired).toHaveLength(1);
    expect(fired[0].data).toMatchObject({ url: popular, status: 404, requestsBefore: 5, errors: 1 });
    await until(() => receiver.received.some((r) => r.body.id === fired[0].id), { timeoutMs: 20_000 });
  }, 60_000);

  it('a receiver answering 503 is tried 5 times (2, 4, 8, 16 minutes apart) then failed; one answering 400 is failed at once', async () => {
    await renderFailures(2, 1, clock.now() - 1_000);
    const fired = await evaluator().evaluate();
    const shop = fired.find((a) => a.website === 'shop')!;
    const outlet = fired.find((a) => a.website === 'outlet')!;
    const tries = (id: string) => receiver.received.filter((r) => r.body.id === id).length;
    await until(() => tries(shop.id) === 1 && tries(outlet.id) === 1, { timeoutMs: 20_000 });
    // The clock moves only once a try is recorded: the next one is due counting from when the try ended, read from the clock.
    await deliveriesWhen('shop', 1);
    for (const [attempt, minutes] of [[2, 2], [3, 4], [4, 8], [5, 16]]) {
      // Not due a second before its time.
      clock.advance(minutes * 60_000 - 1_000);
      await running.apps.projector!.get(AlertDeliverer).tick();
      expect(tries(shop.id)).toBe(attempt - 1);
      clock.advance(1_000);
      // Ticked here too, not only by the deliverer's own interval: on a busy machine an interval tick may still be waiting on the log when the clock moves.
      const deliverer = running.apps.projector!.get(AlertDeliverer);
      await until(async () => (await deliverer.tick(), tries(shop.id)), (n) => n === attempt, { timeoutMs: 20_000, what: `try ${attempt} of ${shop.id}` });
      await deliveriesWhen('shop', attempt);
    }
    const shopLog = await deliveriesWhen('shop', 5);
    expect(shopLog.data.map((d: { attempt: number; status: string; httpStatus: number }) => `${d.attempt} ${d.status} ${d.httpStatus}`)).toEqual(['5 failed 503', '4 retrying 503', '3 retrying 503', '2 retrying 503', '1 retrying 503']);
    expect(shopLog.data[0].error).toBe('HTTP 503');
    const outletLog = await deliveriesWhen('outlet', 1);
    expect(outletLog.data).toEqual([expect.objectContaining({ alertId: outlet.id, attempt: 1, status: 'failed', httpStatus: 400 })]);
    // Nothing more is due: no sixth try.
    clock.advance(3600_000);
    await running.apps.projector!.get(AlertDeliveriesProjector).flush();
    expect(tries(shop.id)).toBe(5);
    expect((await deliveries('shop', '?status=failed&perPage=1')).body.meta).toEqual({ page: 1, perPage: 1, total: 1, totalPages: 1 });
    const metrics = await (await fetch(`${running.urls.projector}/metrics`)).text();
    expect(metrics).toMatch(/bpc_alert_deliveries_total\{type="render_failures",status="retrying"\} (\d+)/);
    expect(Number(/bpc_alert_deliveries_total\{type="render_failures",status="failed"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
  }, 90_000);

  it('an export finished: an export_finished alert to the website of the export, end to end through the standalone app', async () => {
    const manager = (await issueToken(api, { user: 'mia', website: 'demo', role: 'manager' })).token;
    const response = await fetch(`${api}/api/websites/demo/data-explorer/events/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
      body: JSON.stringify({ period: '7d', filename: 'alerts-test', waitSeconds: 30 }),
    });
    const record = await jsonOf(response);
    expect(record.status).toBe('completed');
    const id = `export_finished:demo:${record.exportId}`;
    await until(() => receiver.received.some((r) => r.body.id === id), { timeoutMs: 30_000 });
    const post = receiver.received.find((r) => r.body.id === id)!;
    expect(post.body).toMatchObject({ type: 'export_finished', website: 'demo', data: { exportId: record.exportId, explorer: 'events', filename: 'alerts-test.csv', status: 'completed', rowCount: expect.any(Number) } });
    expect(verifyAlertSignature(SECRET, post.raw, post.headers['x-bpc-signature'] as string, Math.floor(clock.now() / 1000))).toBe(true);
    await until(async () => (await deliveries('demo')).body.data.some((d: { alertId: string; status: string }) => d.alertId === id && d.status === 'delivered'), { timeoutMs: 20_000 });
  }, 90_000);

  // Two subscribers of one group are a Kafka matter: the file log runs in one process.
  (mode === 'cluster' ? it : it.skip)('two deliverers in the group (two projector replicas): an alert raised twice is sent once, a retry across a rebalance once', async () => {
    const log = running.runtime.ports.eventLog!;
    const first = running.apps.projector!.get(AlertDeliverer);
    const raised = (alertId: string, website: string) => newAlertRaised({ alertId, type: 'render_failures', website, alertOccurredAt: new Date(clock.now()).toISOString(), data: { failures: 9 } }, clock.now());
    const tries = (id: string) => receiver.received.filter((r) => r.body.id === id).length;
    // Retrying on the first replica when the second joins.
    await log.append(TOPICS.alerts, [raised('render_failures:shop:rebalanced', 'shop')]);
    await until(() => tries('render_failures:shop:rebalanced') === 1, { timeoutMs: 20_000 });

    const second = new AlertDeliverer(log, alertTargets(running.runtime.config, {}), clock, createLogger('silent', 'second-replica'));
    second.onApplicationBootstrap();
    try {
      // Joining the group rebalances it: up to the session timeout on the mock broker.
      await until(() => second.lag().then(() => true, () => false), { timeoutMs: 90_000 });
      const caughtUp = () => until(async () => (await first.lag().catch(() => 1)) === 0 && (await second.lag()) === 0, { timeoutMs: 60_000 });
      await caughtUp();
      clock.advance(2 * 60_000);
      // Ticked while waiting: a tick finding the log not caught up delivers nothing, and the interval's next one may be seconds away on a busy machine.
      await until(async () => (await Promise.all([first.tick(), second.tick()]), tries('render_failures:shop:rebalanced')), (n) => n === 2, { timeoutMs: 30_000, what: 'the retry after the rebalance' });
      await caughtUp();
      await Promise.all([first.tick(), second.tick()]);
      expect(tries('render_failures:shop:rebalanced')).toBe(2);

      const twice = raised('render_failures:demo:twice', 'demo');
      await log.append(TOPICS.alerts, [twice]);
      await log.append(TOPICS.alerts, [raised('render_failures:demo:twice', 'demo')]);
      await until(() => tries('render_failures:demo:twice') === 1, { timeoutMs: 30_000 });
      // Both have read both events and looked for due work again: still one POST.
      await caughtUp();
      await Promise.all([first.tick(), second.tick()]);
      expect(tries('render_failures:demo:twice')).toBe(1);
    } finally {
      await second.onApplicationShutdown();
    }
  }, 180_000);

  it('bad paging is a 400 VALIDATION_FAILED naming the parameter', async () => {
    for (const [query, field] of [['?perPage=0', 'perPage'], ['?perPage=201', 'perPage'], ['?page=x', 'page'], ['?status=lost', 'status'], ['?colour=red', 'colour']]) {
      const { status, body } = await deliveries('demo', query);
      expect({ query, status, code: body.code, field: body.field }).toEqual({ query, status: 400, code: 'VALIDATION_FAILED', field });
    }
  }, 30_000);

  it('a webhook target on an internal address is refused at connect time when the website does not allow it', async () => {
    const config = validateConfig({ ...baseConfig(), websites: [{ id: 'demo', host_id: 1, account_id: 'acme', alerts: { webhook_url: 'https://hooks.example.com/x', secret: SECRET } }] }, 'test');
    const [target] = alertTargets(config, {});
    const client = new WebhookClient();
    try {
      const before = receiver.received.length;
      const answer = await client.post({ ...target, url: new URL(`${receiver.url}/demo`) }, { id: 'a', type: 'export_finished', website: 'demo', occurredAt: new Date().toISOString(), data: {} }, Date.now());
      // The delivery log (customers read it) says why without the address; the operators' log line gets the detail.
      expect(answer).toEqual({ error: "refused: the webhook's address is internal or denied by the service's egress rules", detail: expect.stringMatching(/EgressRefused: 127\.0\.0\.1 is an internal address/) });
      expect(receiver.received.length).toBe(before);
    } finally {
      await client.close();
    }
  }, 30_000);
});

function baseConfig(): Record<string, unknown> {
  return { internal_auth_key: 'k', hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }] };
}

describe('alert webhook configuration', () => {
  const withAlerts = (alerts: Record<string, unknown>): AppConfig => validateConfig({ ...baseConfig(), websites: [{ id: 'demo', host_id: 1, account_id: 'acme', alerts }] }, 'test');
  const refusal = async (config: AppConfig, env: Record<string, string> = {}) => {
    try {
      await checkAlertTargets(config, env);
      return undefined;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return error.issues;
    }
  };

  it('refuses a webhook on an internal address at load, naming the key, unless allow_internal_target', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://10.1.2.3/x', 'http://2130706433/x']) {
      expect({ url, issues: await refusal(withAlerts({ webhook_url: url, secret: SECRET })) }).toEqual({
        url,
        issues: [{ key: 'websites[0].alerts.webhook_url', reason: expect.stringMatching(/internal address.*refused \(set websites\[0\]\.alerts\.allow_internal_target: true/) }],
      });
    }
    expect(await refusal(withAlerts({ webhook_url: 'http://127.0.0.1:9/hook', secret: SECRET, allow_internal_target: true }))).toBeUndefined();
    expect(await refusal(withAlerts({ webhook_url: 'https://93.184.215.14/hook', secret: SECRET }))).toBeUndefined();
  }, 30_000);

  it('refuses a name any of whose addresses is internal (one public and one private address: refused)', async () => {
    const dns = await startTestDnsServer({ 'mixed.test': ['93.184.215.14', '10.0.0.5'], 'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    try {
      const resolve = dnsResolve(() => dns.resolver());
      const resolvers = { page: resolve, trusted: resolve };
      const issues = await checkAlertTargets(withAlerts({ webhook_url: 'https://mixed.test/hook', secret: SECRET }), {}, resolvers).then(() => [], (error: ConfigError) => error.issues);
      expect(issues).toEqual([{ key: 'websites[0].alerts.webhook_url', reason: expect.stringMatching(/^mixed\.test resolves to an internal address \(10\.0\.0\.5\): refused/) }]);
      await expect(checkAlertTargets(withAlerts({ webhook_url: 'https://public.test/hook', secret: SECRET }), {}, resolvers)).resolves.toBeUndefined();
    } finally {
      await dns.close();
    }
  }, 30_000);

  it('stops startup of the apps with that ConfigError', async () => {
    const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme', alerts: { webhook_url: 'http://127.0.0.1:9/hook', secret: SECRET } }] });
    await expect(startApps(standaloneApps, config, createLogger('silent', 'alerts'))).rejects.toThrow(/websites\[0\]\.alerts\.webhook_url: 127\.0\.0\.1 is an internal address/);
  }, 30_000);

  it('the standalone process refuses to start, exit code 2, naming the key', async () => {
    const websites = [{ id: 'demo', host_id: 1, account_id: 'demo-account', alerts: { webhook_url: 'http://localhost:9/hook', secret_env: 'BPC_TEST_UNSET_WEBHOOK_SECRET' } }];
    const service = spawnService('apps/standalone/src/main.ts', { BPC__WEBSITES: JSON.stringify(websites) });
    expect(await service.exited).toBe(2);
    expect(service.output()).toContain('invalid configuration (alert webhooks)');
    expect(service.output()).toContain('websites[0].alerts.secret_env: environment variable BPC_TEST_UNSET_WEBHOOK_SECRET is not set');
    expect(service.output()).toMatch(/websites\[0\]\.alerts\.webhook_url: localhost resolves to an internal address \((127\.0\.0\.1|::1)\): refused/);
  }, 30_000);

  it('takes the signing key from the environment (secret_env), one way only', async () => {
    const fromEnv = withAlerts({ webhook_url: 'https://93.184.215.14/hook', secret_env: 'DEMO_WEBHOOK_SECRET' });
    expect(await refusal(fromEnv)).toEqual([{ key: 'websites[0].alerts.secret_env', reason: 'environment variable DEMO_WEBHOOK_SECRET is not set or shorter than 16 characters' }]);
    expect(await refusal(fromEnv, { DEMO_WEBHOOK_SECRET: SECRET })).toBeUndefined();
    expect(alertTargets(fromEnv, { DEMO_WEBHOOK_SECRET: SECRET })[0].secret).toBe(SECRET);
    expect(() => withAlerts({ webhook_url: 'https://93.184.215.14/hook' })).toThrow(/websites\[0\]\.alerts\.secret_env: required/);
    expect(() => withAlerts({ webhook_url: 'https://93.184.215.14/hook', secret: SECRET, secret_env: 'X' })).toThrow(/give secret_env or secret, not both/);
    expect(() => withAlerts({ webhook_url: 'ftp://example.com/x', secret: SECRET })).toThrow(/websites\[0\]\.alerts\.webhook_url: must be an http\(s\) URL/);
  });
});
