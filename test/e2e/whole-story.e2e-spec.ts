import { sha256Hex } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { DaemonClient, gate, Json, jsonOf, RuntimeMode, testConfig, TestOrigin, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

const PRERENDER_TOKEN = 'story-prerender-token';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';
const page = (p: string) => `https://www.example.com${p}`;

/**
 * The story the specifications take for granted, black-box over HTTP: bots
 * are served through the edge, their requests show in the public explorer,
 * public recache and invalidate change what bots get, and a daemon pause
 * holds recache while bots are still served.
 */
describe.each<RuntimeMode>(['standalone', 'cluster'])('the whole story (%s mode)', (mode) => {
  let running: RunningApps;
  let origin: TestOrigin;
  let version = 1;
  let originHeldUntil: Promise<void> | undefined;
  let api: string;
  let edge: string;
  let daemon: DaemonClient;
  let token: string;

  beforeAll(async () => {
    origin = new TestOrigin((path) => ({ status: 200, body: `<html><head><title>${path} v${version}</title></head><body>${path} v${version}</body></html>`, heldUntil: originHeldUntil }));
    const originUrl = await origin.start();
    const config = testConfig(mode, {
      scheduler: { tick_ms: 50 },
      edge: { record_flush_ms: 50 },
      rate_limit: { enabled: false },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'bypass' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(PRERENDER_TOKEN) }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', `story-${mode}`));
    api = running.urls['public-api']!;
    edge = running.urls.edge!;
    daemon = new DaemonClient(running.urls.daemon!);
    ({ token } = await issueToken(api, { user: 'owner', website: 'demo', role: 'manager' }));
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
  });

  const botGet = async (path: string, ua = GOOGLEBOT) => {
    const response = await fetch(`${edge}/${page(path)}`, { headers: { 'x-prerender-token': PRERENDER_TOKEN, 'user-agent': ua } });
    return { status: response.status, body: await response.text() };
  };
  const publicGet = async (route: string) => {
    const response = await fetch(`${api}/api/websites/demo/${route}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: await jsonOf(response) };
  };
  const publicPost = async (route: string, body: unknown) => {
    const response = await fetch(`${api}/api/websites/demo/${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: await jsonOf(response) };
  };
  const explore = (mode: string, extra: Record<string, unknown> = {}) => publicPost('data-explorer/events/query', { mode, ...extra });

  it('records the bots\' requests, which show in the events explorer in all three modes within seconds', async () => {
    expect(await botGet('/pricing')).toEqual({ status: 200, body: expect.stringContaining('/pricing v1') });
    expect((await botGet('/pricing', BINGBOT)).status).toBe(200);
    expect((await botGet('/about')).status).toBe(200);

    const requests = await until(() => explore('requests', { columns: ['page', 'bot_name', 'status_code'] }), (r) => r.body.meta?.total === 3, { what: 'requests in the explorer' });
    expect(requests.body.data.map((r: Json) => r.bot_name).sort()).toEqual(['Bingbot', 'Googlebot', 'Googlebot']);
    const pages = await explore('unique_pages');
    expect(pages.status).toBe(200);
    expect(pages.body.data.map((r: Json) => r._rowId).sort()).toEqual([page('/about'), page('/pricing')]);
    const comparison = await explore('comparison', { compCategory: 'new' });
    expect(comparison.status).toBe(200);
    expect(comparison.body.meta.total).toBe(2);
  });

  it('a public recache re-renders a page, and bots get the new version only after the render completes', async () => {
    version = 2;
    const render = gate();
    originHeldUntil = render.opened;
    const hitsBefore = origin.hits.get('/pricing') ?? 0;
    const recache = await publicPost('cache/recache', { urls: [page('/pricing')], priority: 'high' });
    expect(recache).toEqual({ status: 200, body: { entriesEnqueued: 1, urlsAccepted: 1, receiptId: expect.any(String) } });
    const receipt = () => publicGet(`cache/receipts/${recache.body.receiptId}`);
    await until(async () => origin.hits.get('/pricing') ?? 0, (hits) => hits > hitsBefore, { what: 'the render started' });
    // The render is under way, held at the origin: bots still get the old page, and the receipt says it is rendering.
    expect((await botGet('/pricing')).body).toContain('/pricing v1');
    const rendering = await until(receipt, (r) => r.body.data?.[0]?.state === 'rendering', { what: 'the receipt reporting the render under way' });
    expect(rendering.body).toMatchObject({ source: 'api', done: false, totals: { entries: 1, queued: 0, rendering: 1 }, data: [{ url: page('/pricing'), dimensionId: 1, dimension: 'desktop' }] });
    originHeldUntil = undefined;
    render.open();
    await until(() => botGet('/pricing'), (r) => r.body.includes('/pricing v2'), { what: 'the new version served' });
    // The render history row the render projection writes from the scheduler's RenderRecorded (written here as it would be).
    await running.runtime.ports.explorerStore!.insert({
      table: 'render_outcomes',
      rows: [{ host_id: 1, url: page('/pricing'), dimension_id: 1, mode: 'bypass', trigger: 'recache_high', outcome: 'stored', reason: '', status_code: 200, render_ms: 1, bytes: 100, attempt: 1, entry_id: '', ts: new Date().toISOString(), event_id: `story-${mode}-pricing` }],
      token: `story-${mode}-pricing`,
    });
    const stored = await until(receipt, (r) => r.body.done === true, { what: 'the receipt done' });
    expect(stored.body).toMatchObject({ totals: { entries: 1, queued: 0, rendering: 0, stored: 1 }, data: [{ state: 'stored', outcome: 'stored' }] });
    // The completed render counts in the high queue's rate; the queue is empty, so it drains in no time.
    expect(await daemon.drainEstimate()).toMatchObject({ high: { seconds: 0, completed_per_minute: expect.any(Number) } });
    expect((await daemon.drainEstimate()).high.completed_per_minute).toBeGreaterThan(0);
  });

  it('a public invalidate makes the next bot request render and wait for it', async () => {
    version = 3;
    const invalidate = await publicPost('cache/invalidate', { urls: [page('/about')] });
    expect(invalidate).toEqual({ status: 200, body: { entriesInvalidated: 1, urlsAccepted: 1 } });
    const hitsBefore = origin.hits.get('/about') ?? 0;
    expect(await botGet('/about')).toEqual({ status: 200, body: expect.stringContaining('/about v3') });
    expect(origin.hits.get('/about')).toBe(hitsBefore + 1);
  });

  it('a daemon pause stops recache while bots are still served', async () => {
    version = 4;
    expect((await daemon.post('/internal/cache/recache/pause', { host_id: 1 })).status).toBe(200);
    const hitsBefore = origin.hits.get('/pricing') ?? 0;
    expect((await publicPost('cache/recache', { urls: [page('/pricing')], priority: 'high' })).body.entriesEnqueued).toBe(1);
    expect((await daemon.statusAfterTick()).internal_queue.size).toBe(0);
    expect(origin.hits.get('/pricing') ?? 0).toBe(hitsBefore);
    expect(await botGet('/pricing')).toEqual({ status: 200, body: expect.stringContaining('/pricing v2') });
    expect((await daemon.post('/internal/cache/recache/resume', { host_id: 1 })).status).toBe(200);
    await until(() => botGet('/pricing'), (r) => r.body.includes('/pricing v4'), { what: 'rendered after resume' });
  });
});
