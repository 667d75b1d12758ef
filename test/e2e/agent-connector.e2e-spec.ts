import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { changesBetween, type PageFacts } from '@bpc/domain';
import { envelope, newRenderRecorded, SEARCH_PERFORMANCE_RECORDED, TOPICS, type RenderRecorded } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { insertBulkBotRequests, insertRenderOutcomes, jsonOf, removeTestDataDir, renderOutcome, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { factsWith } from '../../libs/core/domain/src/pages/page-facts.fixtures';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const ROOT = path.resolve(__dirname, '../..');
const HOUR = 3_600_000;
const PAGES = 7;
const BULK_ROWS = 300_000;
const DAY = 86_400_000;

/** A stored render of `url` with its facts, compared with the previous render's as the renderer does. */
function rendered(hostId: number, url: string, at: number, facts: PageFacts, previous?: PageFacts, dimensionId = 1): RenderRecorded {
  const changes = previous ? changesBetween(previous, facts) : [];
  const payload = { hostId, url, dimensionId, mode: 'render' as const, trigger: 'recache_normal' as const, outcome: 'stored' as const, reason: '', statusCode: facts.statusCode, renderMs: 900, bytes: facts.bytes, attempt: 1, facts, ...(changes.length ? { changes } : {}) };
  return newRenderRecorded(payload, at);
}

/** A resource's text (the connector serves text resources only). */
const textOf = (contents: ({ text: string } | { blob: string })[]) => ('text' in contents[0] ? contents[0].text : '');

type CallResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** The API's envelope a refused tool call carries (its text's JSON line). */
function refusalOf(result: CallResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  const text = result.content[0].text;
  return JSON.parse(text.slice(text.indexOf('\n') + 1)).error;
}

/** The agent connector through the SDK's own client, over Streamable HTTP (`/mcp` on the public API) and stdio (`npm run mcp`). */
describe('agent connector (MCP)', () => {
  let running: RunningApps;
  let api: string;
  let manager: string;
  let readonly: string;
  /** The website's origin: serves the sitemap recache_sitemap reads. */
  let sitemapOrigin: Server;

  beforeAll(async () => {
    const sitemap = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['s1', 's2', 's1'].map((p) => `<url><loc>https://www.example.com/${p}</loc></url>`).join('')}<url><loc>https://elsewhere.example.org/x</loc></url></urlset>`;
    sitemapOrigin = createServer((req, res) => {
      if (req.url === '/sitemap.xml') res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemap);
      // get_ai_crawlers reads it: GPTBot kept out of the whole site.
      else if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: GPTBot\nDisallow: /\n');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => sitemapOrigin.listen(0, '127.0.0.1', resolve));
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      hosts: [
        {
          host_id: 1,
          hostnames: ['www.example.com'],
          origin: `http://127.0.0.1:${(sitemapOrigin.address() as AddressInfo).port}`,
          dimensions: [
            { id: 1, name: 'desktop', match: { fallback: true } },
            { id: 2, name: 'mobile', match: { user_agent: 'Mobile' } },
          ],
        },
        // Another customer's host: its pages must never show through a token of demo.
        { host_id: 2, hostnames: ['shop.example.org'], origin: 'http://127.0.0.1:9', dimensions: [{ id: 1, name: 'desktop', match: { fallback: true } }] },
      ],
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'bulk', host_id: 1, account_id: 'acme' },
        { id: 'off', host_id: 1, account_id: 'acme', platform_module: false },
        { id: 'shop', host_id: 2, account_id: 'other' },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-agent-connector'));
    api = running.urls['public-api']!;
    ({ token: manager } = await issueToken(api, { user: 'mia', website: 'demo', role: 'manager' }));
    await issueToken(api, { user: 'mia', website: 'bulk', role: 'readonly' });
    await issueToken(api, { user: 'mia', website: 'off', role: 'readonly' });
    ({ token: readonly } = await issueToken(api, { user: 'ron', website: 'demo', role: 'readonly' }));
    const now = Date.now();
    const events = Array.from({ length: PAGES }, (_, i) =>
      botRequest('demo', new Date(now - (i + 1) * HOUR), { url: `https://www.example.com/p${i}`, botName: i % 2 ? 'Bingbot' : 'Googlebot', cacheStatus: i % 3 ? 'hit' : 'stale' }),
    );
    await recordAndWait(running, events, 'demo', events.length);
    // Enough rows that an export of them still runs while the connector asks for the slot.
    await insertBulkBotRequests(running.runtime.ports.explorerStore!, 'bulk', BULK_ROWS, now - 60_000);
    await insertRenderOutcomes(running.runtime.ports.explorerStore!, [
      renderOutcome(new Date(now - HOUR), { url: 'https://www.example.com/p0' }),
      renderOutcome(new Date(now - 2 * HOUR), { url: 'https://www.example.com/p1', outcome: 'kept_soft_404', reason: 'soft 404: title "Page not found"' }),
      renderOutcome(new Date(now - 3 * HOUR), { url: 'https://www.example.com/p2', outcome: 'kept_soft_404', reason: 'soft 404: title "Page not found"' }),
    ]);
    // SEO health: /pricing turned noindex and lost its title two days ago; /gone answers 404; shop's /secret turned noindex too.
    const pricing = 'https://www.example.com/pricing';
    const healthy = factsWith({ title: 'Pricing', canonical: pricing });
    await running.runtime.ports.eventLog!.append(TOPICS.renders, [
      rendered(1, pricing, now - 3 * DAY, healthy),
      rendered(1, pricing, now - 2 * DAY, { ...healthy, title: 'Plans', noindexBy: ['robots'] }, healthy),
      rendered(1, 'https://www.example.com/pricing?ref=ad', now - 3 * DAY, healthy),
      rendered(1, 'https://www.example.com/gone', now - 2 * DAY, factsWith({ statusCode: 404, title: 'Not found', canonical: null })),
      rendered(2, 'https://shop.example.org/secret', now - 3 * DAY, factsWith({ title: 'Secret' })),
      rendered(2, 'https://shop.example.org/secret', now - 2 * DAY, factsWith({ title: 'Secret', noindexBy: ['robots'] }), factsWith({ title: 'Secret' })),
    ]);
    const yesterday = new Date(now - DAY).toISOString().slice(0, 10);
    const searchRows = [{ key: pricing, clicks: 40, impressions: 900, position: 2 }, { key: 'https://www.example.com/gone', clicks: 3, impressions: 50, position: 8 }];
    await running.runtime.ports.eventLog!.append(TOPICS.searchPerformance, [
      envelope(SEARCH_PERFORMANCE_RECORDED, 1, { websiteId: 'demo', date: yesterday, grain: 'page' as const, rows: searchRows, source: 'search-console-csv' as const }, { id: 'search-demo-1', occurredAt: new Date(now), key: 'demo' }),
    ]);
    await until(
      async () => (await running.runtime.ports.explorerStore!.query<{ n: number }>('SELECT (SELECT count() FROM pages FINAL) + (SELECT count() FROM search_page_daily FINAL) AS n')).at(0)?.n,
      (n) => Number(n) === 6,
      { timeoutMs: 20_000, intervalMs: 50, what: 'pages (3 of demo, 1 of shop) and search days projected' },
    );
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
    sitemapOrigin?.closeAllConnections();
    await new Promise((resolve) => sitemapOrigin?.close(resolve));
  });

  const transports: Record<string, (token: string) => Transport> = {
    'Streamable HTTP': (token) => new StreamableHTTPClientTransport(new URL(`${api}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    stdio: (token) =>
      new StdioClientTransport({
        command: process.execPath,
        args: ['-r', './scripts/swc-register.cjs', 'apps/mcp/src/main.ts', '--url', api],
        env: { ...(process.env as Record<string, string>), BPC_TOKEN: token },
        cwd: ROOT,
        stderr: 'inherit',
      }),
  };

  describe.each(Object.keys(transports))('over %s', (kind) => {
    let asManager: Client;
    let asReadonly: Client;
    const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;

    beforeAll(async () => {
      asManager = new Client({ name: 'e2e', version: '1.0.0' });
      asReadonly = new Client({ name: 'e2e', version: '1.0.0' });
      await Promise.all([asManager.connect(transports[kind](manager)), asReadonly.connect(transports[kind](readonly))]);
    }, 60_000);
    afterAll(async () => {
      await asManager?.close();
      await asReadonly?.close();
    });

    it('lists tools with schemas from the API and truthful annotations, resources of each Data Explorer website, templates and prompts', async () => {
      const { tools } = await asManager.listTools();
      expect(tools.map((t) => t.name)).toEqual(['list_websites', 'describe_explorers', 'query_explorer', 'get_insights', 'get_bot_categories', 'get_ai_crawlers', 'list_pages_turned_noindex', 'get_page_changes', 'list_critical_pages_by_clicks', 'start_export', 'get_export_status', 'recache_urls', 'invalidate_urls', 'get_queue_status', 'query_renders', 'lookup_cache', 'invalidate_matching', 'recache_sitemap', 'get_recache_receipt', 'list_alert_deliveries']);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.lookup_cache.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(byName.invalidate_matching.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(byName.invalidate_matching.description).toMatch(/dryRun: true/);
      expect(byName.lookup_cache.inputSchema).toMatchObject({ required: ['website'], properties: { url: { type: 'string' }, prefix: { type: 'string' }, pattern: { type: 'string' }, perPage: { maximum: 500 } } });
      expect(byName.query_explorer.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(byName.invalidate_urls.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(byName.recache_urls.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      // The API's DTO constraints, not a copy: perPage's maximum, the filter items, the enum of sortDir.
      const query = byName.query_explorer.inputSchema as { properties: Record<string, Record<string, unknown>>; required: string[] };
      expect(query.required).toEqual(['website', 'explorer']);
      expect(query.properties.perPage).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
      expect(query.properties.sortDir).toMatchObject({ enum: ['asc', 'desc'] });
      expect(query.properties.filters).toMatchObject({ type: 'array', items: { type: 'object', required: ['field'] } });
      expect(byName.recache_urls.inputSchema).toMatchObject({ required: ['website', 'urls'], properties: { urls: { maxItems: 1000 } } });

      const { resources } = await asManager.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual([
        'bpc://websites/bulk/explorers',
        'bpc://websites/bulk/explorers/reference',
        'bpc://websites/demo/explorers',
        'bpc://websites/demo/explorers/reference',
      ]);
      const { resourceTemplates } = await asManager.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['bpc://websites/{website}/explorers', 'bpc://websites/{website}/explorers/reference']);
      const catalog = await asManager.readResource({ uri: 'bpc://websites/demo/explorers' });
      expect(JSON.parse(textOf(catalog.contents)).explorers.map((e: { key: string }) => e.key)).toEqual(['events', 'search-pages', 'search-keywords', 'pages', 'page_changes']);
      const reference = await asManager.readResource({ uri: 'bpc://websites/demo/explorers/reference' });
      expect(textOf(reference.contents)).toContain('| cache_status | Cache status | enum | eq, ne | hit, miss, stale, bypass |');
      // Another user's website is the API's 403, not data.
      await expect(asReadonly.readResource({ uri: 'bpc://websites/bulk/explorers' })).rejects.toThrow(/FORBIDDEN/);

      const { prompts } = await asManager.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(['crawl_drop_investigation', 'stale_pages', 'search_clicks_vs_crawl']);
      const prompt = await asManager.getPrompt({ name: 'stale_pages', arguments: { website: 'demo' } });
      expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('query_explorer') });
    });

    it('answers list_websites, describe_explorers, get_insights, get_bot_categories, get_ai_crawlers and get_queue_status with structured content and a summary', async () => {
      const websites = await call(asManager, 'list_websites', {});
      expect(websites.isError).toBeFalsy();
      expect((websites.structuredContent!.websites as { id: string; role: string }[]).map((w) => [w.id, w.role])).toEqual([
        ['bulk', 'readonly'],
        ['demo', 'manager'],
        ['off', 'readonly'],
      ]);
      expect(websites.content[0].text).toMatch(/^3 website\(s\): /);

      const discovery = await call(asManager, 'describe_explorers', { website: 'demo', explorer: 'events' });
      expect(discovery.structuredContent).toMatchObject({ explorers: [{ key: 'events' }], limits: { perPageMax: expect.any(Number) } });

      const insights = await call(asManager, 'get_insights', { website: 'demo', period: '24h', splitBy: 'bot_family' });
      expect(insights.isError).toBeFalsy();
      expect(insights.structuredContent).toMatchObject({ summary: { data: { current: { requests: PAGES, pages: PAGES } } }, timeseries: { meta: { metric: 'requests', interval: 'hour' } } });
      expect(insights.content[0].text).toContain(`${PAGES} requests on ${PAGES} pages`);

      const readers = await call(asReadonly, 'get_bot_categories', { website: 'demo', period: '24h' });
      expect(readers.isError).toBeFalsy();
      expect(readers.structuredContent).toMatchObject({ data: { requests: PAGES, aiAgents: { requests: expect.any(Number) } }, meta: { period: '24h' } });
      expect(readers.content[0].text).toMatch(new RegExp(`^Period 24h: ${PAGES} bot requests; AI agents `));
      const refusedFilter = await call(asReadonly, 'get_bot_categories', { website: 'demo', filters: [{ field: 'verified', op: 'eq', val: 'perhaps' }] });
      expect(refusedFilter.isError).toBe(true);
      expect(refusedFilter.content[0].text).toContain('(field: filters[0].val)');

      const crawlers = await call(asReadonly, 'get_ai_crawlers', { website: 'demo', period: '24h' });
      expect(crawlers.isError).toBeFalsy();
      expect(crawlers.structuredContent).toMatchObject({ data: { robotsTxt: { state: 'rules', httpStatus: 200 }, summary: { blocked: 1, agentsSeen: 0 }, spoofed: { requests: 0 } }, meta: { period: '24h', hostname: 'www.example.com' } });
      expect((crawlers.structuredContent!.data as { agents: { name: string; robots: string }[] }).agents).toEqual([expect.objectContaining({ name: 'GPTBot', robots: 'blocked' })]);
      expect(crawlers.content[0].text).toMatch(/^Period 24h, robots\.txt https:\/\/www\.example\.com\/robots\.txt read, .* it names 1 \(GPTBot blocked\)/);
      const refusedHost = await call(asReadonly, 'get_ai_crawlers', { website: 'demo', hostname: 'elsewhere.example.org' });
      expect(refusedHost.isError).toBe(true);
      expect(refusedHost.content[0].text).toContain('(field: hostname)');

      const queue = await call(asReadonly, 'get_queue_status', { website: 'demo' });
      expect(queue.structuredContent).toMatchObject({ hostId: 1, paused: false, queues: { high: { total: expect.any(Number) } }, drainEstimate: { high: { completedPerMinute: 0 } } });
      expect(queue.content[0].text).toContain('Estimated drain: high ');
    });

    it('pages query_explorer: 50 rows by default, nextPage until the last page', async () => {
      const first = await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', mode: 'unique_pages', period: '24h' });
      expect(first.structuredContent).toMatchObject({ nextPage: null, meta: { perPage: 50, total: PAGES, page: 1 } });
      expect((first.structuredContent!.rows as Record<string, unknown>[])[0]).not.toHaveProperty('_rowId');
      const none = await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', filters: [{ field: 'url', op: 'contains', val: '/nowhere' }] });
      expect(none.content[0].text).toMatch(/^No rows match \(events\/requests/);
      const pages: number[] = [];
      const urls = new Set<string>();
      for (let page: number | null = 1; page !== null; ) {
        const result = await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', mode: 'unique_pages', period: '24h', perPage: 3, page });
        pages.push(page);
        for (const row of result.structuredContent!.rows as { page: string }[]) urls.add(row.page);
        page = result.structuredContent!.nextPage as number | null;
        if (page !== null) expect(result.content[0].text).toContain(`page=${page}`);
      }
      expect(pages).toEqual([1, 2, 3]);
      expect(urls.size).toBe(PAGES);
      // A page past the last is the API's refusal.
      expect(refusalOf(await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', mode: 'unique_pages', period: '24h', perPage: 3, page: 4 }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'page' });
    });

    it('refuses bad arguments naming their field, as the API does', async () => {
      expect(refusalOf(await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', period: 'yesterday' }))).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'period' });
      expect(refusalOf(await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', filters: [{ field: 'url', op: 'gt', val: 1 }] }))).toMatchObject({ field: 'filters[0].op' });
      expect(refusalOf(await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', perPage: 501 }))).toMatchObject({ field: 'perPage' });
      expect(refusalOf(await call(asReadonly, 'query_explorer', { website: 'demo', explorer: 'events', rows: 5 }))).toMatchObject({ field: 'rows' });
      expect(refusalOf(await call(asReadonly, 'query_explorer', { explorer: 'events' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'website' });
      expect(refusalOf(await call(asReadonly, 'get_insights', { website: 'demo', metric: 'clicks', period: '24h' }))).toMatchObject({ field: 'period' });
      expect(refusalOf(await call(asReadonly, 'query_explorer', { website: 'off', explorer: 'events' }))).toMatchObject({ status: 403 });
      // Dot segments would be folded away by URL normalisation and land on another /api route.
      expect(refusalOf(await call(asReadonly, 'describe_explorers', { website: '..' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'website' });
      expect(refusalOf(await call(asManager, 'start_export', { website: 'demo', explorer: '..' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'explorer' });
      // Another website's data, whatever the spelling of its id.
      expect(refusalOf(await call(asReadonly, 'query_explorer', { website: 'demo/../bulk', explorer: 'events' }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      await expect(asReadonly.readResource({ uri: 'bpc://websites/%E0%A4%A/explorers' })).rejects.toThrow(/VALIDATION_FAILED/);
    });

    it("answers SEO health's questions: pages turned noindex, what changed on a path, critical issues by clicks; only the website's own host", async () => {
      const pricing = 'https://www.example.com/pricing';
      const turned = await call(asReadonly, 'list_pages_turned_noindex', { website: 'demo' });
      expect(turned.isError).toBeFalsy();
      expect(turned.structuredContent).toMatchObject({ nextPage: null, meta: { explorerKey: 'page_changes', total: 1, period: '7d' }, rows: [{ url: pricing, dimension: 'desktop', before: 'false', after: 'true' }] });
      expect(turned.content[0].text).toMatch(new RegExp(`^1 noindex turn\\(s\\) .* newest first: ${pricing.replace(/[.?]/g, '\\$&')}\\.`));

      const changed = await call(asReadonly, 'get_page_changes', { website: 'demo', url: '/pricing' });
      expect(changed.isError).toBeFalsy();
      expect((changed.structuredContent!.rows as { field: string }[]).map((row) => row.field).sort()).toEqual(['noindex', 'title']);
      // The path matches the URL with a query string too, never another path.
      expect((changed.structuredContent!.current as { url: string; noindex: string }[]).map((row) => [row.url, row.noindex])).toEqual([[pricing, 'robots'], [`${pricing}?ref=ad`, '']]);
      expect(changed.content[0].text).toMatch(/^2 change\(s\) .* desktop title: "Pricing" → "Plans" \(notice\).* Now: https:\/\/www\.example\.com\/pricing desktop: status 200, noindex \(robots\), title "Plans", issues noindex/);
      expect(refusalOf(await call(asReadonly, 'get_page_changes', { website: 'demo', url: 'pricing' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'url' });

      const costly = await call(asReadonly, 'list_critical_pages_by_clicks', { website: 'demo' });
      expect(costly.isError).toBeFalsy();
      expect((costly.structuredContent!.rows as Record<string, unknown>[]).map((row) => [row.url, row.issues, row.clicks])).toEqual([[pricing, 'noindex', 40], ['https://www.example.com/gone', 'status_4xx', 3]]);
      expect(costly.content[0].text).toMatch(/^2 page\(s\) .* On this page: noindex 1 URL\(s\), 40 clicks, 900 impressions; status_4xx 1 URL\(s\), 3 clicks, 50 impressions\./);

      // Tenancy: shop's page turned noindex too, yet demo's token never sees it, and asking for shop is the API's 403.
      for (const result of [turned, changed, costly]) expect(JSON.stringify(result.structuredContent)).not.toContain('shop.example.org');
      for (const tool of ['list_pages_turned_noindex', 'list_critical_pages_by_clicks']) expect(refusalOf(await call(asReadonly, tool, { website: 'shop' }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(refusalOf(await call(asReadonly, 'get_page_changes', { website: 'shop', url: '/secret' }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    });

    it('query_renders answers why renders kept the old snapshot, and refuses a bad filter naming it', async () => {
      const reasons = await call(asReadonly, 'query_renders', { website: 'demo', mode: 'reasons', period: '24h', filters: [{ field: 'outcome_class', op: 'ne', val: 'stored' }] });
      expect(reasons.isError).toBeFalsy();
      expect(reasons.structuredContent).toMatchObject({ nextPage: null, meta: { explorerKey: 'renders', mode: 'reasons', total: 1, perPage: 50 }, rows: [{ outcome: 'kept_soft_404', reason: 'soft 404: title "Page not found"', renders: 2, pages: 2 }] });
      expect(reasons.content[0].text).toMatch(/^1 row\(s\) of 1 \(renders\/reasons/);
      const refused = await call(asReadonly, 'query_renders', { website: 'demo', filters: [{ field: 'outcome_class', val: 'broken' }] });
      expect(refusalOf(refused)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'filters[0].val' });
    });

    it('recaches and invalidates as a manager; a readonly token is refused FORBIDDEN', async () => {
      const recache = await call(asManager, 'recache_urls', { website: 'demo', urls: ['https://www.example.com/p1', 'https://www.example.com/p1'], priority: 'high' });
      expect(recache.structuredContent).toEqual({ urlsAccepted: 1, entriesEnqueued: expect.any(Number), receiptId: expect.any(String) });
      const receiptId = recache.structuredContent!.receiptId as string;
      expect(recache.content[0].text).toContain(`receipt ${receiptId}`);

      // The receipt follows the recache: the scheduler is off here, so every entry waits queued.
      const receipt = await call(asReadonly, 'get_recache_receipt', { website: 'demo', receiptId });
      expect(receipt.isError).toBeFalsy();
      expect(receipt.structuredContent).toMatchObject({ receiptId, source: 'api', done: false, totals: { entries: 2, queued: 2 }, meta: { perPage: 50 } });
      expect(receipt.content[0].text).toMatch(new RegExp(`^Receipt ${receiptId} \\(in progress\\): 2 entr\\(ies\\): 2 queued`));
      const onePage = await call(asReadonly, 'get_recache_receipt', { website: 'demo', receiptId, perPage: 1 });
      expect(onePage.content[0].text).toContain('call again with page 2');
      expect(refusalOf(await call(asReadonly, 'get_recache_receipt', { website: 'demo', receiptId, state: 'done' }))).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'state' });
      const unknown = await call(asReadonly, 'get_recache_receipt', { website: 'demo', receiptId: '00000000-0000-4000-8000-000000000000' });
      expect(refusalOf(unknown)).toMatchObject({ status: 404, code: 'RECEIPT_NOT_FOUND' });
      expect(unknown.content[0].text).toContain('pass the receiptId recache_urls returned');
      const invalidate = await call(asManager, 'invalidate_urls', { website: 'demo', urls: ['https://www.example.com/p2'] });
      expect(invalidate.structuredContent).toMatchObject({ urlsAccepted: 1, entriesInvalidated: expect.any(Number) });
      const refused = await call(asReadonly, 'recache_urls', { website: 'demo', urls: ['https://www.example.com/p1'] });
      expect(refusalOf(refused)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(refused.content[0].text).toMatch(/^Refused: HTTP 403 FORBIDDEN/);
      expect(refusalOf(await call(asManager, 'invalidate_urls', { website: 'demo', urls: ['https://elsewhere.example.org/'] }))).toMatchObject({ code: 'VALIDATION_FAILED', field: expect.stringMatching(/^urls/) });
    });

    it('looks cache entries up (one URL, or by prefix and pattern, paged) and invalidates matching ones after a dry run', async () => {
      const site = (p: string) => `https://www.example.com/mcp-${kind.replace(/\W/g, '')}/${p}`;
      const now = Date.now();
      for (const p of ['a', 'b', 'c']) {
        await running.runtime.ports.cacheStore!.put(
          { hostId: 1, url: site(p), dimensionId: 1, kind: 'render', statusCode: 200, headers: { 'content-type': 'text/html' }, durationMs: 420, createdAt: now, expiresAt: now + HOUR },
          Buffer.from(`<html>${p}</html>`),
        );
      }
      const one = await call(asReadonly, 'lookup_cache', { website: 'demo', url: site('a') });
      expect(one.structuredContent).toMatchObject({ url: site('a'), entries: [{ dimension: 'desktop', cached: true, status: 'fresh', renderMs: 420, hits: 0 }, { dimension: 'mobile', cached: false }] });
      expect(one.content[0].text).toMatch(/desktop: fresh 200, rendered .* mobile: not cached/);
      const listed = await call(asReadonly, 'lookup_cache', { website: 'demo', prefix: site(''), perPage: 2 });
      expect(listed.structuredContent).toMatchObject({ meta: { total: 3, totalPages: 2 } });
      expect(listed.content[0].text).toContain('page=2');
      expect((await call(asReadonly, 'lookup_cache', { website: 'demo', pattern: `${site('')}[bc]$` })).structuredContent).toMatchObject({ meta: { total: 2 } });
      expect(refusalOf(await call(asReadonly, 'lookup_cache', { website: 'demo', pattern: '(?!a)' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'pattern' });
      expect(refusalOf(await call(asReadonly, 'lookup_cache', { website: 'demo', url: site('a'), prefix: site('') }))).toMatchObject({ field: 'prefix' });
      expect(refusalOf(await call(asReadonly, 'lookup_cache', { website: 'demo', url: 'https://elsewhere.example.org/' }))).toMatchObject({ status: 404, field: 'url' });

      expect(refusalOf(await call(asReadonly, 'invalidate_matching', { website: 'demo', prefix: site(''), dryRun: true }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      const dry = await call(asManager, 'invalidate_matching', { website: 'demo', prefix: site(''), dryRun: true });
      expect(dry.structuredContent).toEqual({ dryRun: true, entriesMatched: 3, urlsMatched: 3, entriesInvalidated: 0 });
      expect(dry.content[0].text).toMatch(/^Dry run: 3 cache entr\(ies\) on 3 URL\(s\) would be dropped/);
      expect((await call(asManager, 'invalidate_matching', { website: 'demo', prefix: site('') })).structuredContent).toEqual({ dryRun: false, entriesMatched: 3, urlsMatched: 3, entriesInvalidated: 3 });
      expect((await call(asReadonly, 'lookup_cache', { website: 'demo', prefix: site('') })).content[0].text).toMatch(/^No cache entries match/);
    });

    it('recaches a sitemap as a manager, with the counts and a receipt; refusals carry the API envelope naming sitemapUrl', async () => {
      const done = await call(asManager, 'recache_sitemap', { website: 'demo', sitemapUrl: 'https://www.example.com/sitemap.xml' });
      expect(done.isError).toBeFalsy();
      expect(done.structuredContent).toEqual({
        receiptId: expect.any(String),
        sitemapsRead: 1,
        urlsFound: 4,
        urlsAccepted: 2,
        entriesEnqueued: 4,
        skipped: { offHost: 1, invalid: 0, overCap: 0, notModified: 0, duplicate: 1 },
      });
      expect(done.content[0].text).toMatch(/^1 sitemap file\(s\) read, 4 URL\(s\) found, 2 accepted, 4 render job\(s\) queued; skipped: 1 offHost, 1 duplicate\. Receipt /);
      expect(refusalOf(await call(asManager, 'recache_sitemap', { website: 'demo', sitemapUrl: 'https://www.example.com/missing.xml' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'sitemapUrl', message: expect.stringMatching(/HTTP 404/) });
      expect(refusalOf(await call(asManager, 'recache_sitemap', { website: 'demo', sitemapUrl: 'https://www.example.com/sitemap.xml', lastmodAfter: 'soon' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'lastmodAfter' });
      expect(refusalOf(await call(asReadonly, 'recache_sitemap', { website: 'demo', sitemapUrl: 'https://www.example.com/sitemap.xml' }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    });

    it('shares the account export slot with the API: 409 names the holder; exports it starts record startedFrom agent', async () => {
      const held = await fetch(`${api}/api/websites/bulk/data-explorer/events/export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
        body: JSON.stringify({ filename: `held-${kind}`, waitSeconds: 0 }),
      });
      const holder = await jsonOf(held);
      expect(holder).toMatchObject({ status: 'running', startedFrom: 'api' });

      const busy = await call(asManager, 'start_export', { website: 'demo', explorer: 'events', filename: 'mine', waitSeconds: 0 });
      expect(refusalOf(busy)).toMatchObject({ status: 409, code: 'EXPORT_SLOT_BUSY', exportId: holder.exportId });
      expect(busy.content[0].text).toContain(`get_export_status with exportId ${holder.exportId}`);

      // The model waits on the holder (its own user's export) through the connector.
      const state = await until(
        async () => (await call(asManager, 'get_export_status', { website: 'bulk', exportId: holder.exportId })).structuredContent!.export as Record<string, unknown>,
        (record) => record.status !== 'running',
        { timeoutMs: 60_000, intervalMs: 100, what: `export ${holder.exportId} ending` },
      );
      expect(state).toMatchObject({ status: 'completed', rowCount: BULK_ROWS, startedFrom: 'api' });

      const started = await call(asManager, 'start_export', { website: 'demo', explorer: 'events', filename: `agent-${kind}`, period: '24h' });
      expect(started.structuredContent!.export).toMatchObject({ status: 'completed', rowCount: PAGES, startedFrom: 'agent', downloadUrl: expect.any(String) });
      const listed = await call(asManager, 'get_export_status', { website: 'demo' });
      expect((listed.structuredContent!.exports as { filename: string; startedFrom: string }[])[0]).toMatchObject({ filename: `agent-${kind}.csv`, startedFrom: 'agent' });
      // Another user's export is not readable.
      expect(refusalOf(await call(asReadonly, 'get_export_status', { website: 'demo', exportId: holder.exportId }))).toMatchObject({ status: 404 });
    }, 120_000);
  });

  describe('Streamable HTTP authorization', () => {
    it('refuses /mcp without a token or with a bad one: 401, WWW-Authenticate pointing at the protected resource metadata', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const missing = await fetch(`${api}/mcp`, { method: 'POST', headers, body });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${api}/.well-known/oauth-protected-resource"`);
      expect(await jsonOf(missing)).toMatchObject({ code: 'UNAUTHENTICATED' });
      const bad = await fetch(`${api}/mcp`, { method: 'POST', headers: { ...headers, authorization: 'Bearer bpc_nope' }, body });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');

      for (const suffix of ['', '/mcp']) {
        const metadata = await fetch(`${api}/.well-known/oauth-protected-resource${suffix}`);
        expect(metadata.status).toBe(200);
        expect(await jsonOf(metadata)).toMatchObject({ resource: `${api}/mcp`, bearer_methods_supported: ['header'] });
      }
      // The SDK client surfaces the refusal.
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp`)))).rejects.toThrow();
    });
  });
});
