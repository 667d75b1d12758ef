import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AlertDeliverer } from '@bpc/alerts';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { QueueProjector, ReceiptProjector } from '@bpc/projections';
import { jsonOf, removeTestDataDir, TEST_INTERNAL_KEY, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { adminHeaders, issueToken } from './explorer-fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The Renders page's single renders columns (apps/dashboard/src/lib/renders-state.ts RENDER_COLUMNS). */
const RENDER_COLUMNS = ['page', 'rendered_at', 'outcome', 'reason', 'trigger', 'dimension', 'status_code', 'render_ms', 'bytes', 'attempt', 'receipt'];
const stateOf = (outcome: string) => (outcome === 'stored' ? 'stored' : outcome.startsWith('kept_') ? 'kept' : 'failed');

/**
 * The demo data tells one story: each figure of the dashboard's overview is
 * what the page its link opens shows (the same API bodies the dashboard sends).
 * The demo website has a webhook here, so the alert deliverer reads the
 * demo's alerts as it would after a replay of the log.
 */
describe('demo data: the overview agrees with the pages it links to (standalone)', () => {
  let running: RunningApps;
  let api: string;
  let token: string;
  let written: Json;
  let receiver: Server;
  const posted: string[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      posted.push(request.url ?? '');
      request.resume().on('end', () => response.end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const webhook = { webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/demo`, secret: 'test-webhook-secret-0123456789', allow_internal_target: true, export_finished: false };
    running = await startApps(standaloneApps, testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme', alerts: webhook }] }), createLogger('warn', 'e2e-demo-story'));
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'dana', website: 'demo', role: 'readonly' }));
    const response = await fetch(`${api}/internal/admin/demo-data`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ website: 'demo', days: 16, requestsPerDay: 400, seed: 5 }) });
    expect(response.status).toBe(200);
    written = await jsonOf(response);
    expect(written.renders).toBeGreaterThan(0);
    const count = async (table: string) => Number((await running.runtime.ports.explorerStore!.query<{ n: number }>(`SELECT count() AS n FROM ${table} FINAL`))[0]!.n);
    await until(async () => (await count('bot_requests')) === written.botRequests && (await count('render_outcomes')) === written.renders, { timeoutMs: 60_000, what: () => 'the demo data in the explorer' });
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
    receiver?.close();
  });

  const post = async (path: string, body: unknown): Promise<Json> => {
    const response = await fetch(`${api}/api/websites/demo/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return jsonOf(response);
  };
  const get = async (path: string): Promise<Json> => {
    const response = await fetch(`${api}/api/websites/demo/${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return jsonOf(response);
  };

  it.each(['7d', '24h'])('over %s: renders failed are the failed edge misses the Renders page lists by reason', async (period) => {
    const { data: summary } = await post('insights/summary', { period });
    expect(summary.current.rendersFailed).toBeGreaterThan(period === '7d' ? 0 : -1);
    // The overview links to /renders?period=…&trigger=edge_miss&show=failed: the reasons table of that view.
    const reasons = await post('renders/query', { mode: 'reasons', period, columns: ['outcome', 'reason', 'renders'], filters: [{ field: 'trigger', op: 'eq', val: 'edge_miss' }, { field: 'outcome_class', op: 'eq', val: 'failed' }], perPage: 100 });
    expect(reasons.data.reduce((sum: number, row: Json) => sum + Number(row.renders), 0)).toBe(summary.current.rendersFailed);
  });

  it('pages new and lost are the rows of the explorer comparison each links to', async () => {
    const { data: summary } = await post('insights/summary', { period: '7d' });
    expect(summary.newPages + summary.lostPages).toBeGreaterThan(0);
    for (const [category, figure] of [['new', summary.newPages], ['lost', summary.lostPages]] as const) {
      const comparison = await post('data-explorer/events/query', { mode: 'comparison', period: '7d', compCategory: category });
      expect([category, comparison.meta.total]).toEqual([category, figure]);
    }
  });

  it('who reads: each category of the overview card is the explorer rows its link opens; AI assistants read pages, a few Googlebots are spoofed, some crawling is disallowed', async () => {
    const { data } = await post('insights/bot-categories', { period: '7d' });
    expect(data.categories.map((c: Json) => c.category)).toEqual(expect.arrayContaining(['search', 'ai_search', 'ai_assistant', 'ai_training']));
    for (const row of data.categories) {
      const rows = await post('data-explorer/events/query', { period: '7d', perPage: 1, filters: [{ field: 'bot_category', op: 'eq', val: row.category }] });
      expect([row.category, rows.meta.total]).toEqual([row.category, row.requests]);
    }
    expect(data.topAiPages.some((p: Json) => p.category === 'ai_assistant')).toBe(true);
    const total = async (filters: Json[]) => (await post('data-explorer/events/query', { period: '7d', perPage: 1, filters })).meta.total;
    expect(await total([{ field: 'verified', op: 'eq', val: 'no' }, { field: 'bot_name', op: 'equals', val: 'Googlebot' }])).toBeGreaterThan(0);
    expect(await total([{ field: 'robots_allowed', op: 'eq', val: 'no' }])).toBeGreaterThan(0);
    expect(await total([{ field: 'format', op: 'eq', val: 'markdown' }])).toBeGreaterThan(0);
  });

  it("AI agents: each agent's requests and disallowed requests, and the spoofed figures, are the explorer rows the page's links open", async () => {
    const { data } = await post('insights/ai-crawlers', { period: '7d' });
    const total = async (filters: Json[]) => (await post('data-explorer/events/query', { period: '7d', perPage: 1, filters })).meta.total;
    const seen = data.agents.filter((agent: Json) => agent.requests > 0);
    expect(seen.map((agent: Json) => agent.name)).toEqual(expect.arrayContaining(['GPTBot', 'ChatGPT-User', 'ClaudeBot', 'PerplexityBot', 'CCBot']));
    for (const agent of seen) {
      const ofAgent = { field: 'bot_name', op: 'equals', val: agent.name };
      expect([agent.name, await total([ofAgent]), await total([ofAgent, { field: 'robots_allowed', op: 'eq', val: 'no' }])]).toEqual([agent.name, agent.requests, agent.disallowedRequests]);
    }
    expect(data.summary.agentsIgnoringRobotsTxt).toBe(3);
    const spoofed = { field: 'verified', op: 'eq', val: 'no' };
    expect(data.spoofed.requests).toBe(await total([spoofed]));
    expect(data.spoofed.rendersAvoided).toBe(await total([spoofed, { field: 'status_code', op: 'eq', val: 403 }]));
    expect(data.spoofed.rendersAvoided).toBeGreaterThan(0);
    expect(data.spoofed.topClaimedBots).toEqual([{ bot: 'Googlebot', requests: data.spoofed.requests }]);
  });

  it("SEO health: each issue's pages and each severity's changes are the explorer rows the SEO page's links open; /features turned noindex while bots read it", async () => {
    const { data } = await post('insights/seo', { period: '7d' });
    expect(data.pages).toBeGreaterThan(0);
    const pagesWith = async (filters: Json[]) => (await post('data-explorer/pages/query', { period: '7d', perPage: 1, filters })).meta.total;
    const present = data.issues.filter((issue: Json) => issue.pages > 0);
    expect(present.map((issue: Json) => issue.code)).toEqual(expect.arrayContaining(['noindex', 'thin_content', 'canonical_elsewhere', 'description_missing']));
    for (const issue of present) expect([issue.code, await pagesWith([{ field: 'issue', op: 'eq', val: issue.code }])]).toEqual([issue.code, issue.pages]);
    for (const severity of ['critical', 'warning', 'notice']) {
      const changes = await post('data-explorer/page_changes/query', { period: '7d', perPage: 1, filters: [{ field: 'severity', op: 'eq', val: severity }] });
      expect([severity, changes.meta.total]).toEqual([severity, data.changes[severity]]);
    }
    expect(data.changes.critical).toBeGreaterThan(0);
    // The trend's last day (today) is the figures now: the demo has no duplicate title, the one issue the days leave out.
    expect(data.issues.find((issue: Json) => issue.code === 'title_duplicate').pages).toBe(0);
    const { t: _today, ...lastDay } = data.pagesWithIssuesByDay.at(-1);
    expect(lastDay).toEqual(data.pagesWithIssues);
    const { t: _day, ...lastCodes } = data.issuesByDay.at(-1);
    expect(lastCodes).toEqual(Object.fromEntries(data.issues.filter((issue: Json) => issue.code !== 'title_duplicate').map((issue: Json) => [issue.code, issue.pages])));
    const urgent = await post('data-explorer/pages/query', { period: '7d', columns: ['url', 'urgent'], filters: [{ field: 'urgent', op: 'eq', val: 1 }] });
    expect(urgent.data.map((row: Json) => new URL(row.url).pathname)).toContain('/features');
  });

  it("recache receipts: each demo receipt is done, and its entries' states are the Renders page's rows of their renders, which link to it", async () => {
    expect(written.receipts).toHaveLength(3);
    await until(async () => (await running.apps.projector!.get(ReceiptProjector).lag()) === 0, { what: 'the receipts projected' });
    // The Renders page's single renders of the scheduler's triggers (the receipt column links each render of a receipt's entry to it).
    const rows: Json[] = [];
    for (const trigger of ['sitemap', 'recache_high', 'recache_normal']) {
      rows.push(...(await post('renders/query', { mode: 'renders', period: '7d', columns: RENDER_COLUMNS, filters: [{ field: 'trigger', op: 'eq', val: trigger }], perPage: 500 })).data);
    }
    const states = new Set<string>();
    for (const receiptId of written.receipts as string[]) {
      // The Cache page's receipt view (`?receipt=`) reads it so.
      const receipt = await get(`cache/receipts/${receiptId}?page=1&perPage=50`);
      expect([receiptId, receipt.done, receipt.totals.queued, receipt.totals.rendering]).toEqual([receiptId, true, 0, 0]);
      const finals = rows.filter((row) => row.receipt === receiptId && row.outcome !== 'retry_scheduled');
      const fromRenders = finals.map((row) => [row.page, row.dimension, stateOf(row.outcome), row.outcome, row.attempt, row.rendered_at]).sort();
      const fromReceipt = receipt.data.map((entry: Json) => [entry.url, entry.dimension, entry.state, entry.outcome, entry.attempt, entry.updatedAt]).sort();
      expect([receiptId, fromReceipt]).toEqual([receiptId, fromRenders]);
      expect(receipt.totals.entries).toBe(receipt.data.length);
      for (const entry of receipt.data) states.add(entry.state);
    }
    // The outage night's sitemap recache failed some entries; the landing pages' recache kept one old page.
    expect(states).toEqual(new Set(['stored', 'kept', 'failed']));
  });

  it("alerts: the Alerts page lists the demo's deliveries, every alert delivered (one after a 503 and a retry)", async () => {
    const deliveries = async () => get(`alerts/deliveries?page=1&perPage=100`);
    await until(async () => (await deliveries()).meta.total === written.alertDeliveries, { what: () => `the ${written.alertDeliveries} demo alert deliveries in the delivery log` });
    const { data } = await deliveries();
    expect(new Set(data.map((d: Json) => d.type))).toEqual(new Set(['render_failures', 'noindex_appeared']));
    expect(data.filter((d: Json) => d.status !== 'delivered').map((d: Json) => [d.type, d.attempt, d.status, d.httpStatus, d.error])).toEqual([['noindex_appeared', 1, 'retrying', 503, 'HTTP 503']]);
    const alertIds = new Set(data.map((d: Json) => d.alertId));
    expect(new Set(data.filter((d: Json) => d.status === 'delivered').map((d: Json) => d.alertId))).toEqual(alertIds);
  });

  it('leaves no live work: the queue holds none of the demo recaches, and the webhook is sent none of its alerts', async () => {
    const projector = running.apps.projector!;
    await until(async () => (await projector.get(QueueProjector).lag()) === 0, { what: 'the queue projection caught up' });
    const status = await jsonOf(await fetch(`${running.urls.daemon}/status`, { headers: { 'x-internal-auth': TEST_INTERNAL_KEY } }));
    const queue = status.data.queues['1'] ?? {};
    expect(['high', 'normal', 'autorecache'].map((priority) => queue[priority]?.total ?? 0)).toEqual([0, 0, 0]);
    // The deliverer has read every demo alert (and its tries) from the beginning of the topic; a tick now sends none.
    const deliverer = projector.get(AlertDeliverer);
    await until(async () => (await deliverer.lag()) === 0, { what: 'the alert deliverer caught up' });
    await deliverer.tick();
    expect(posted).toEqual([]);
  });
});
