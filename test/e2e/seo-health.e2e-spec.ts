import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AlertEvaluator, verifyAlertSignature } from '@bpc/alerts';
import { sha256Hex } from '@bpc/domain';
import { newRenderRecorded, TOPICS, type RenderRecorded } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { bypassHost, DaemonClient, jsonOf, rawRequest, recordedOn, removeTestDataDir, RuntimeMode, testConfig, TestOrigin, until, type OriginAnswer } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { factsWith } from '../../libs/core/domain/src/pages/page-facts.fixtures';
import { issueToken } from './explorer-fixtures';

const TOKEN = 'seo-health-token';
const SECRET = 'seo-health-webhook-secret-0123';

/** A webhook receiver on loopback: records every POST (raw body and signature). */
async function startReceiver(): Promise<{ server: Server; url: string; received: { raw: string; signature: string; body: { id: string; type: string; data: Record<string, unknown> } }[] }> {
  const received: { raw: string; signature: string; body: { id: string; type: string; data: Record<string, unknown> } }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ raw, signature: String(request.headers['x-bpc-signature']), body: JSON.parse(raw) });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}
const page = (p: string) => `https://www.example.com${p}`;
const html = (title: string, head = '') => `<html lang="en"><head><title>${title}</title><meta name="description" content="Plans and prices">${head}</head><body><h1>${title}</h1><p>${'plans prices '.repeat(150)}</p></body></html>`;

/**
 * SEO health end to end, driven by a local origin whose pages change between
 * renders: each stored render is compared with the entry it replaces, the
 * change rides on its RenderRecorded (checked against the published schema),
 * the projector of the mode writes `pages` and `page_changes`, and the public
 * API's explorers show them, exports included.
 */
describe.each<RuntimeMode>(['standalone', 'cluster'])('SEO health: page facts, issues and changes (%s mode)', (mode) => {
  let running: RunningApps;
  let origin: TestOrigin;
  let api: string;
  let token: string;
  let daemon: DaemonClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const answers = new Map<string, (hit: number) => OriginAnswer>();

  beforeAll(async () => {
    origin = new TestOrigin((p, hit) => answers.get(p)?.(hit) ?? { status: 200, body: html('Pricing') });
    receiver = await startReceiver();
    const config = testConfig(mode, {
      scheduler: { tick_ms: 50 },
      edge: { record_flush_ms: 50 },
      hosts: [bypassHost(await origin.start())],
      websites: [
        {
          id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN),
          alerts: { webhook_url: `${receiver.url}/demo`, secret: SECRET, allow_internal_target: true, export_finished: false, noindex_appeared: { min_pages: 1, window_minutes: 60 }, critical_pages_up: { increase_percent: 50, min_pages: 2 } },
        },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', `seo-health-${mode}`));
    api = running.urls['public-api']!;
    daemon = new DaemonClient(running.urls.daemon!);
    ({ token } = await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' }));
    // Yesterday one page's latest render answered 404: today's critical pages are compared with it.
    const gone = factsWith({ statusCode: 404, title: 'Not found', canonical: null });
    const yesterday = newRenderRecorded({ hostId: 1, url: page('/gone-yesterday'), dimensionId: 1, mode: 'render', trigger: 'recache_normal', outcome: 'stored', reason: '', statusCode: 404, renderMs: 900, bytes: gone.bytes, attempt: 1, facts: gone }, Date.now() - 86_400_000);
    await running.runtime.ports.eventLog!.append(TOPICS.renders, [yesterday]);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
    receiver?.server.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const explorer = async (key: string, body: Record<string, unknown>) => {
    const response = await fetch(`${api}/api/websites/demo/data-explorer/${key}/query`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return { status: response.status, body: await jsonOf(response) };
  };
  const rendersOf = async (url: string) =>
    Number((await running.runtime.ports.explorerStore!.query<{ n: number }>('SELECT count() AS n FROM render_outcomes FINAL WHERE host_id = 1 AND url = {url:String}', { url }))[0].n);
  /** Recaches `url` and waits for its renders (both dimensions of the host) to be in the history. */
  const recache = async (url: string) => {
    const before = await rendersOf(url);
    await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url], priority: 'high' });
    await until(async () => (await rendersOf(url)) >= before + 2);
  };
  const desktop = { field: 'dimension', op: 'equals', val: 'desktop' };

  it('records noindex appearing as a critical change, lists it in page_changes, and shows the latest facts and issues in pages', async () => {
    const url = page('/pricing');
    let noindex = false;
    answers.set('/pricing', () => ({ status: 200, body: html('Pricing', noindex ? '<meta name="Robots" content=" NOINDEX, follow">' : '') }));
    const miss = await rawRequest(running.urls.edge!, `/${url}`, { headers: { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } });
    expect(miss.status).toBe(200);
    await until(async () => (await rendersOf(url)) === 1);

    noindex = true;
    await recache(url);

    const renders = (await recordedOn(running.runtime.ports.eventLog!, TOPICS.renders)) as RenderRecorded[];
    const ofPricing = renders.filter((event) => event.payload.url === url && event.payload.dimensionId === 1);
    expect(ofPricing.map((event) => event.payload.changes)).toEqual([undefined, [{ field: 'noindex', before: 'false', after: 'true', severity: 'critical' }]]);

    await until(async () => (await explorer('page_changes', { filters: [{ field: 'url', op: 'equals', val: url }] })).body.meta?.total === 1);
    // The mobile entry was new at the recache: nothing to compare with.
    const changes = await explorer('page_changes', { filters: [{ field: 'url', op: 'equals', val: url }] });
    expect(changes.body.data).toEqual([expect.objectContaining({ url, dimension: 'desktop', field: 'noindex', before: 'false', after: 'true', severity: 'critical' })]);

    await until(async () => (await explorer('pages', { columns: ['url', 'noindex'], filters: [{ field: 'url', op: 'equals', val: url }] })).body.data?.[0]?.noindex === 'robots');
    const pages = await explorer('pages', {
      columns: ['url', 'dimension', 'title', 'description', 'noindex', 'status_code', 'word_count', 'issues', 'critical_issues', 'last_rendered_at', 'requests', 'last_googlebot_at'],
      filters: [{ field: 'issue', op: 'eq', val: 'noindex' }, desktop],
    });
    expect(pages.status).toBe(200);
    expect(pages.body.data).toEqual([
      expect.objectContaining({ url, dimension: 'desktop', title: 'Pricing', description: 'Plans and prices', noindex: 'robots', status_code: 200, word_count: 301, issues: 'noindex', critical_issues: 1 }),
    ]);
    expect(pages.body.data[0].last_rendered_at).toEqual(expect.any(String));

    const seo = await fetch(`${api}/api/websites/demo/insights/seo`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ period: '24h' }) });
    expect(seo.status).toBe(200);
    const { data } = await jsonOf(seo);
    expect(data.changes.critical).toBeGreaterThanOrEqual(1);
    expect(data.issues.find((issue: { code: string }) => issue.code === 'noindex')).toEqual({ code: 'noindex', severity: 'critical', pages: 2 }); // desktop and mobile
    // Today's end of the days is the figures now.
    expect(data.issuesByDay.at(-1).noindex).toBe(2);
    expect(data.pagesWithIssuesByDay.at(-1).critical).toBe(data.pagesWithIssues.critical);

    // noindex appeared on at least one page within the hour: one signed alert reaches the website's webhook.
    const raised = await running.apps.projector!.get(AlertEvaluator).evaluate();
    const fired = raised.filter((alert) => alert.type === 'noindex_appeared');
    expect(fired).toEqual([expect.objectContaining({ type: 'noindex_appeared', website: 'demo', data: expect.objectContaining({ pages: 1, minPages: 1, windowMinutes: 60, examples: [url] }) })]);
    await until(() => receiver.received.some((post) => post.body.id === fired[0].id), { timeoutMs: 20_000 });
    const post = receiver.received.find((one) => one.body.id === fired[0].id)!;
    expect(verifyAlertSignature(SECRET, post.raw, post.signature, Math.floor(Date.now() / 1000))).toBe(true);
    expect(post.body).toMatchObject({ type: 'noindex_appeared', data: { pages: 1, examples: [url] } });

    // Pages with critical issues: yesterday 1 (the 404), today 2 (/pricing on both dimensions), up 100 % (at least 50 %): one signed alert, delivered and logged.
    const [risen] = raised.filter((alert) => alert.type === 'critical_pages_up');
    expect(risen).toEqual(expect.objectContaining({ id: `critical_pages_up:demo:${new Date().toISOString().slice(0, 10)}`, data: expect.objectContaining({ pages: 2, yesterday: 1, increasePercent: 100, renderedYesterday: 1, minIncreasePercent: 50, minPages: 2, examples: [url] }) }));
    await until(() => receiver.received.some((one) => one.body.id === risen.id), { timeoutMs: 20_000 });
    const risenPost = receiver.received.find((one) => one.body.id === risen.id)!;
    expect(verifyAlertSignature(SECRET, risenPost.raw, risenPost.signature, Math.floor(Date.now() / 1000))).toBe(true);
    const deliveries = async () => (await jsonOf(await fetch(`${api}/api/websites/demo/alerts/deliveries`, { headers: { authorization: `Bearer ${token}` } }))).data as { alertId: string; type: string; status: string }[];
    await until(async () => (await deliveries()).some((one) => one.alertId === risen.id && one.status === 'delivered'), { timeoutMs: 20_000 });
  }, 90_000);

  it('keeps a page whose facts change on every render to one change row per field and day', async () => {
    const url = page('/flip');
    let version = 0;
    answers.set('/flip', () => ({ status: 200, body: html(`Flip ${version}`) }));
    for (version = 1; version <= 5; version++) await recache(url);
    const flips = { columns: ['url', 'field', 'before', 'after', 'severity', 'renders'], filters: [{ field: 'url', op: 'equals', val: url }, desktop], sort: 'field', sortDir: 'asc' };
    await until(async () => (await explorer('page_changes', flips)).body.data as { renders: number }[] | undefined, (rows) => rows?.length === 2 && rows.every((row) => row.renders === 4));
    const { body } = await explorer('page_changes', flips);
    // The title and the first heading change on every render: one row each, the day's first before and latest after.
    expect(body.data.map(({ _rowId, ...row }: Record<string, unknown>) => row)).toEqual([
      { url, field: 'h1', before: 'Flip 1', after: 'Flip 5', severity: 'notice', renders: 4 },
      { url, field: 'title', before: 'Flip 1', after: 'Flip 5', severity: 'notice', renders: 4 },
    ]);
  }, 90_000);

  it('exports pages as CSV with a formula-like title neutralised, and refuses an unknown issue code naming the field', async () => {
    const url = page('/evil');
    answers.set('/evil', () => ({ status: 200, body: html('=HYPERLINK("http://evil.test","click")') }));
    await recache(url);
    await until(async () => (await explorer('pages', { columns: ['url'], filters: [{ field: 'url', op: 'equals', val: url }, desktop] })).body.meta?.total === 1);
    const exported = await fetch(`${api}/api/websites/demo/data-explorer/pages/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ columns: ['url', 'title'], filters: [{ field: 'url', op: 'equals', val: url }, desktop], waitSeconds: 30 }),
    });
    const record = await jsonOf(exported);
    expect(record).toMatchObject({ status: 'completed', rowCount: 1, columns: ['url', 'title'] });
    const csv = await (await fetch(record.downloadUrl.replace(/^https?:\/\/[^/]+/, api))).text();
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test"",""click"")"`);

    const refused = await explorer('pages', { filters: [{ field: 'issue', val: 'no_such_issue' }] });
    expect({ status: refused.status, code: refused.body.code, field: refused.body.field }).toEqual({ status: 400, code: 'VALIDATION_FAILED', field: 'filters[0].val' });
  }, 90_000);
});
