import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { RECACHE_REQUESTED, type RecacheRequestedPayload, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { DaemonClient, jsonOf, removeTestDataDir, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const page = (path: string) => `https://www.example.com/${path}`;
const urlset = (entries: { loc: string; lastmod?: string }[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset ${NS}>${entries.map((e) => `<url><loc>${e.loc}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`).join('')}</urlset>`;
const pages = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ loc: page(`${prefix}/${i}`) }));

describe('sitemap recache through the standalone app', () => {
  let running: RunningApps;
  let api: string;
  let daemon: DaemonClient;
  let manager: string;
  let origin: Server;
  let elsewhere: Server;
  const served: Record<string, { body: string | Buffer; type?: string; status?: number; location?: string }> = {};

  const listen = async (handler: RequestListener): Promise<Server> => {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  };
  const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  beforeAll(async () => {
    origin = await listen((req, res) => {
      const file = served[req.url ?? ''];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(file.status ?? 200, { 'content-type': file.type ?? 'application/xml', ...(file.location ? { location: file.location } : {}) }).end(file.body);
    });
    elsewhere = await listen((_req, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset([{ loc: page('stolen') }])));
    Object.assign(served, {
      '/sitemap_index.xml': { body: `<sitemapindex ${NS}><sitemap><loc>${page('s1.xml.gz')}</loc></sitemap><sitemap><loc>${page('s2.xml.gz')}</loc></sitemap></sitemapindex>` },
      '/s1.xml.gz': { body: gzipSync(urlset([...pages('a', 6000), { loc: 'https://elsewhere.example.net/x' }, { loc: 'not a url' }])), type: 'application/gzip' },
      '/s2.xml.gz': { body: gzipSync(urlset([...pages('b', 5000), { loc: page('admin/secret') }, { loc: page('a/0') }])), type: 'application/gzip' },
      '/dated.xml': { body: urlset([{ loc: page('old'), lastmod: '2026-01-01' }, { loc: page('new'), lastmod: '2026-03-01T10:00:00Z' }, { loc: page('undated') }]) },
      '/lol.xml': { body: `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;">]><urlset ${NS}><url><loc>${page('&l2;')}</loc></url></urlset>` },
      '/page.html': { body: '<html><body>Welcome</body></html>', type: 'text/html' },
      '/moved.xml': { body: '', status: 302, location: `${urlOf(elsewhere)}/sitemap.xml` },
      '/nested.xml': { body: `<sitemapindex ${NS}><sitemap><loc>${page('sitemap_index.xml')}</loc></sitemap></sitemapindex>` },
    });
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      hosts: [
        {
          host_id: 1,
          hostnames: ['www.example.com'],
          origin: urlOf(origin),
          dimensions: [
            { id: 1, name: 'desktop', match: { fallback: true } },
            { id: 2, name: 'mobile', match: { user_agent: 'Mobile' } },
          ],
          url_rules: [{ pattern: '^/admin/', action: 'ignore' }],
        },
        // No origin: its pages (and sitemaps) are fetched from the hostname itself, a loopback address here.
        { host_id: 2, hostnames: ['127.0.0.1'], dimensions: [{ id: 1, name: 'desktop' }] },
      ],
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'inside', host_id: 2, account_id: 'acme' },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-sitemap-recache'));
    api = running.urls['public-api']!;
    daemon = new DaemonClient(running.urls.daemon!);
    ({ token: manager } = await issueToken(api, { user: 'mona', website: 'demo', role: 'manager' }));
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
    origin?.closeAllConnections();
    elsewhere?.closeAllConnections();
    await Promise.all([origin, elsewhere].map((server) => server && new Promise((resolve) => server.close(resolve))));
  });

  beforeEach(async () => {
    await daemon.post('/internal/cache/queue/purge', { host_id: 1, priorities: ['high', 'normal', 'autorecache'] });
  });

  const recacheSitemap = async (body: unknown, token = manager, website = 'demo') => {
    const response = await fetch(`${api}/api/websites/${website}/cache/recache-sitemap`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await jsonOf(response)) as Record<string, unknown> };
  };

  /** Every RecacheRequested recorded so far, read up to the log's end. */
  const recorded = async (): Promise<RecacheRequestedPayload[]> => {
    const seen: RecacheRequestedPayload[] = [];
    const subscription = await running.runtime.ports.eventLog!.subscribe({
      groupId: `sitemap-recache-reader-${Math.random()}`,
      topics: [TOPICS.queue],
      handleBatch: async (batch) => void seen.push(...batch.records.filter((r) => r.event.type === RECACHE_REQUESTED).map((r) => r.event.payload as RecacheRequestedPayload)),
    });
    try {
      await until(async () => (await subscription.lag()) === 0, { timeoutMs: 10_000 });
      return seen;
    } finally {
      await subscription.stop();
    }
  };

  it('recaches an index of gzip sitemaps in chunks under one receipt, counting what it skipped', async () => {
    const answer = await recacheSitemap({ sitemapUrl: page('sitemap_index.xml') });
    expect(answer).toEqual({
      status: 200,
      body: {
        receiptId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sitemapsRead: 3,
        urlsFound: 11_004,
        urlsAccepted: 11_001,
        // The /admin/ URL is accepted but an ignore rule keeps it out of the queue.
        entriesEnqueued: 22_000,
        skipped: { offHost: 1, invalid: 1, overCap: 0, notModified: 0, duplicate: 1 },
      },
    });
    expect((await daemon.queues()).normal.total).toBe(22_000);
    // The ignored /admin/ URL is left out of its chunk by the URL rules.
    const chunks = (await recorded()).filter((p) => p.receiptId === answer.body.receiptId);
    expect(chunks.map((c) => c.urls.length)).toEqual([10_000, 1000]);
    expect(chunks.every((c) => c.source === 'sitemap' && c.priority === 'normal' && c.hostId === 1)).toBe(true);
    expect(new Set(chunks.flatMap((c) => c.urls)).size).toBe(11_000);
  }, 30_000);

  it('takes only entries modified after lastmodAfter (and those without a lastmod), at high priority when asked', async () => {
    const answer = await recacheSitemap({ sitemapUrl: page('dated.xml'), lastmodAfter: '2026-02-01', priority: 'high' });
    expect(answer.body).toMatchObject({ sitemapsRead: 1, urlsFound: 3, urlsAccepted: 2, entriesEnqueued: 4, skipped: { notModified: 1 } });
    expect((await daemon.queues()).high.total).toBe(4);
  }, 30_000);

  it.each([
    ['entity declarations', 'lol.xml', /DOCTYPE/],
    ['an HTML page', 'page.html', /HTML page/],
    ['a redirect to another host', 'moved.xml', /redirects to another host/],
    ['an index inside an index', 'nested.xml', /sitemap index inside a sitemap index/],
    ['a missing file', 'missing.xml', /HTTP 404/],
  ])('refuses %s with 400 naming sitemapUrl, queuing and recording nothing', async (_name, path, message) => {
    const before = (await recorded()).length;
    const answer = await recacheSitemap({ sitemapUrl: page(path) });
    expect(answer).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.stringMatching(message), field: 'sitemapUrl' } });
    expect((await daemon.queues()).normal.total).toBe(0);
    expect((await recorded()).length).toBe(before);
  }, 30_000);

  it('refuses a sitemap on an internal address that is not the configured origin', async () => {
    const { token } = await issueToken(api, { user: 'ivan', website: 'inside', role: 'manager' });
    const answer = await recacheSitemap({ sitemapUrl: `${urlOf(origin)}/sitemap_index.xml` }, token, 'inside');
    expect(answer).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/internal address/), field: 'sitemapUrl' } });
  }, 30_000);

  it.each([
    ['a missing sitemapUrl', {}, 'sitemapUrl'],
    ['a sitemapUrl on another host', { sitemapUrl: 'https://shop.example.org/sitemap.xml' }, 'sitemapUrl'],
    ['a relative sitemapUrl', { sitemapUrl: '/sitemap.xml' }, 'sitemapUrl'],
    ['a sitemapUrl that is not a string', { sitemapUrl: 5 }, 'sitemapUrl'],
    ['a lastmodAfter that is not a date', { sitemapUrl: page('dated.xml'), lastmodAfter: 'last week' }, 'lastmodAfter'],
    ['a lastmodAfter without a zone', { sitemapUrl: page('dated.xml'), lastmodAfter: '2026-02-01T10:00:00' }, 'lastmodAfter'],
    ['an unknown priority', { sitemapUrl: page('dated.xml'), priority: 'autorecache' }, 'priority'],
    ['an unknown key', { sitemapUrl: page('dated.xml'), urls: [] }, 'urls'],
  ])('refuses %s with 400 VALIDATION_FAILED naming the field', async (_name, body, field) => {
    expect(await recacheSitemap(body)).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.any(String), field } });
  });

  it('needs the manager role', async () => {
    const { token: reader } = await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' });
    expect(await recacheSitemap({ sitemapUrl: page('dated.xml') }, reader)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
  });
});
