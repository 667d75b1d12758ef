import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { callOf, type Call } from '../test-support';
import { setCsrfToken } from './client';
import { api } from './endpoints';
import type { CacheLookupResult, DiscoveryDocument, ExportRecord, QueryResult, QueueStatus, Receipt, SessionView } from './types';

/** Every call answered 200 `{}` (204 for DELETE), as the API saw it. */
function record(): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input, init) => {
      const call = await callOf(input, init);
      calls.push(call);
      return call.method === 'DELETE' ? new Response(null, { status: 204 }) : new Response('{}', { status: 200 });
    }),
  );
  return calls;
}

afterEach(() => {
  setCsrfToken(undefined);
  vi.unstubAllGlobals();
});

describe('api (every endpoint the dashboard calls)', () => {
  it('calls the paths the document names, path and query parameters encoded, bodies as given', async () => {
    const calls = record();
    const site = 'my site';
    await api.session.read();
    await api.session.open({ token: 'bpc_tok_x' });
    await api.websites();
    await api.explorer.discover(site);
    await api.explorer.query(site, 'search-pages', { period: '7d', filters: [{ field: 'status_code', op: 'between', val: 200, val2: 'abc' }] });
    await api.exports.start(site, 'events', { period: '7d', waitSeconds: 0 });
    await api.exports.status(site, 7);
    await api.exports.history(site);
    await api.cache.recache(site, ['https://www.example.com/a'], 'high');
    await api.cache.invalidate(site, ['https://www.example.com/a']);
    await api.cache.queue(site);
    await api.cache.lookup(site, 'https://www.example.com/a?b=1&c');
    await api.cache.entries(site, { pattern: '^https://x/$', page: 2 });
    await api.cache.invalidateMatching(site, { prefix: 'https://www.example.com/', dryRun: true });
    await api.cache.receipt(site, 'r/1', { page: 1, perPage: 50, state: 'failed' });
    await api.cache.recacheSitemap(site, { sitemapUrl: 'https://www.example.com/sitemap.xml', priority: 'normal' });
    await api.renders.discover(site);
    await api.renders.query(site, { mode: 'reasons', perPage: 100 });
    await api.renders.timeseries(site, { period: '7d', interval: 'day' });
    await api.renders.export(site, { mode: 'renders', filename: 'renders', waitSeconds: 0 });
    await api.alerts.deliveries(site, { page: 2, status: 'failed' });
    await api.insights.summary(site, { period: '30d' });
    await api.insights.timeseries(site, { metric: 'requests', splitBy: 'cache_status' });
    await api.insights.botCategories(site, { period: '7d', filters: [{ field: 'verified', op: 'eq', val: 'yes' }] });
    await api.insights.aiCrawlers(site, { period: '30d', hostname: 'www.example.com' });
    await api.insights.seo(site, { period: '7d' });
    await api.searchPerformance.import(site, { format: 'pages_csv', content: 'a,b', date: '2026-11-01' });
    await api.session.end();
    const w = '/api/websites/my%20site';
    expect(calls.map((c) => [`${c.method} ${c.path}`, c.body])).toEqual([
      ['GET /api/session', undefined],
      ['POST /api/session', { token: 'bpc_tok_x' }],
      ['GET /api/websites', undefined],
      [`GET ${w}/data-explorer`, undefined],
      // A range's upper bound as typed: the API's refusal names its control.
      [`POST ${w}/data-explorer/search-pages/query`, { period: '7d', filters: [{ field: 'status_code', op: 'between', val: 200, val2: 'abc' }] }],
      [`POST ${w}/data-explorer/events/export`, { period: '7d', waitSeconds: 0 }],
      [`GET ${w}/data-explorer/export/7/status`, undefined],
      [`GET ${w}/data-explorer/exports`, undefined],
      [`POST ${w}/cache/recache`, { urls: ['https://www.example.com/a'], priority: 'high' }],
      [`POST ${w}/cache/invalidate`, { urls: ['https://www.example.com/a'] }],
      [`GET ${w}/cache/queue`, undefined],
      [`GET ${w}/cache/entries?url=https%3A%2F%2Fwww.example.com%2Fa%3Fb%3D1%26c`, undefined],
      [`POST ${w}/cache/entries/query`, { pattern: '^https://x/$', page: 2 }],
      [`POST ${w}/cache/entries/invalidate`, { prefix: 'https://www.example.com/', dryRun: true }],
      [`GET ${w}/cache/receipts/r%2F1?page=1&perPage=50&state=failed`, undefined],
      [`POST ${w}/cache/recache-sitemap`, { sitemapUrl: 'https://www.example.com/sitemap.xml', priority: 'normal' }],
      [`GET ${w}/renders`, undefined],
      [`POST ${w}/renders/query`, { mode: 'reasons', perPage: 100 }],
      [`POST ${w}/renders/timeseries`, { period: '7d', interval: 'day' }],
      [`POST ${w}/renders/export`, { mode: 'renders', filename: 'renders', waitSeconds: 0 }],
      [`GET ${w}/alerts/deliveries?page=2&status=failed`, undefined],
      [`POST ${w}/insights/summary`, { period: '30d' }],
      [`POST ${w}/insights/timeseries`, { metric: 'requests', splitBy: 'cache_status' }],
      [`POST ${w}/insights/bot-categories`, { period: '7d', filters: [{ field: 'verified', op: 'eq', val: 'yes' }] }],
      [`POST ${w}/insights/ai-crawlers`, { period: '30d', hostname: 'www.example.com' }],
      [`POST ${w}/insights/seo`, { period: '7d' }],
      [`POST ${w}/search-performance/import`, { format: 'pages_csv', content: 'a,b', date: '2026-11-01' }],
      ['DELETE /api/session', undefined],
    ]);
  });

  it('ends the session with its CSRF token, the header the document names for it', async () => {
    const calls = record();
    setCsrfToken('csrf-2');
    await expect(api.session.end()).resolves.toBeUndefined();
    expect(calls[0]!.headers.get('x-csrf-token')).toBe('csrf-2');
  });

  it('answers with the types of types.ts, narrower where the document is loose', () => {
    expectTypeOf(api.session.read).returns.resolves.toEqualTypeOf<SessionView>();
    expectTypeOf(api.explorer.discover).returns.resolves.toEqualTypeOf<DiscoveryDocument>();
    expectTypeOf(api.explorer.query).returns.resolves.toEqualTypeOf<QueryResult>();
    expectTypeOf(api.renders.query).returns.resolves.toEqualTypeOf<QueryResult>();
    expectTypeOf(api.exports.status).returns.resolves.toEqualTypeOf<ExportRecord>();
    expectTypeOf(api.cache.queue).returns.resolves.toEqualTypeOf<QueueStatus>();
    expectTypeOf(api.cache.lookup).returns.resolves.toEqualTypeOf<CacheLookupResult>();
    expectTypeOf(api.cache.receipt).returns.resolves.toEqualTypeOf<Receipt>();
    expectTypeOf(api.session.end).returns.resolves.toEqualTypeOf<void>();
  });
});
