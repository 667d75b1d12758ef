import { TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, RuntimeMode, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const page = (path: string) => `https://www.example.com/${path}`;
const HOUR = 3_600_000;

describe.each<RuntimeMode>(['standalone', 'cluster'])('public cache entries (%s mode)', (mode) => {
  let running: RunningApps;
  let api: string;
  let manager: string;
  let reader: string;

  beforeAll(async () => {
    const config = testConfig(mode, {
      scheduler: { enabled: false },
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'acme', platform_module: false },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', `e2e-public-cache-entries-${mode}`));
    api = running.urls['public-api']!;
    ({ token: manager } = await issueToken(api, { user: 'mona', website: 'demo', role: 'manager' }));
    ({ token: reader } = await issueToken(api, { user: 'rhea', website: 'demo', role: 'readonly' }));
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const cache = () => running.runtime.ports.cacheStore!;
  const cached = (url: string, dimensionId = 1, overrides: { createdAt?: number; expiresAt?: number; hostId?: number; kind?: 'render' | 'bypass' } = {}) => {
    const createdAt = overrides.createdAt ?? Date.now();
    return cache().put(
      { hostId: overrides.hostId ?? 1, url, dimensionId, kind: overrides.kind ?? 'render', statusCode: 200, headers: { 'content-type': 'text/html' }, durationMs: 850, createdAt, expiresAt: overrides.expiresAt ?? createdAt + HOUR },
      Buffer.from(`<html>${url}</html>`),
    );
  };
  const lookUp = async (query: string, token = reader, website = 'demo') => {
    const response = await fetch(`${api}/api/websites/${website}/cache/entries?${query}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: await jsonOf(response) };
  };
  const post = async (op: 'query' | 'invalidate', body: unknown, token = manager, website = 'demo') => {
    const response = await fetch(`${api}/api/websites/${website}/cache/entries/${op}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: await jsonOf(response) };
  };

  describe('GET …/cache/entries?url=', () => {
    it('answers every dimension: the cached one with its facts and the hits served from it since it was rendered, the other as not cached', async () => {
      const renderedAt = Date.now() - 10 * 60_000;
      await cached(page('look'), 1, { createdAt: renderedAt });
      const served = (minutesAgo: number, overrides = {}) => botRequest('demo', new Date(Date.now() - minutesAgo * 60_000), { url: page('look'), ...overrides });
      await recordAndWait(
        running,
        [
          served(5),
          served(2, { cacheStatus: 'stale' }),
          served(1, { cacheStatus: 'miss' }),
          served(20), // before the render: another entry served it
          served(3, { dimensionId: 2, dimensionName: 'mobile' }),
          served(4, { url: page('other') }),
        ],
        'demo',
        6,
      );
      const { status, body } = await lookUp(`url=${encodeURIComponent('HTTPS://WWW.EXAMPLE.COM/look#top')}`);
      expect(status).toBe(200);
      expect(body).toEqual({
        url: page('look'),
        entries: [
          {
            dimensionId: 1,
            dimension: 'desktop',
            cached: true,
            kind: 'render',
            status: 'fresh',
            statusCode: 200,
            renderedAt: new Date(renderedAt).toISOString(),
            expiresAt: new Date(renderedAt + HOUR).toISOString(),
            bytes: `<html>${page('look')}</html>`.length,
            renderMs: 850,
            lastServedAt: expect.any(String),
            hits: 2,
          },
          { dimensionId: 2, dimension: 'mobile', cached: false, lastServedAt: null, hits: 0 },
        ],
      });
      expect(Date.parse(body.entries[0].lastServedAt)).toBeGreaterThan(Date.now() - 3 * 60_000);
    }, 30_000);

    it('shows an expired entry as stale', async () => {
      await cached(page('old'), 2, { createdAt: Date.now() - 2 * HOUR, expiresAt: Date.now() - HOUR, kind: 'bypass' });
      expect((await lookUp(`url=${encodeURIComponent(page('old'))}`)).body.entries[1]).toMatchObject({ cached: true, kind: 'bypass', status: 'stale', hits: 0, lastServedAt: null });
    });

    it.each([
      ['no url', '', 'url'],
      ['a relative url', 'url=/pricing', 'url'],
      ['a url given twice', `url=${encodeURIComponent(page('a'))}&url=${encodeURIComponent(page('b'))}`, 'url'],
      ['an unknown parameter', `url=${encodeURIComponent(page('a'))}&dimension=1`, 'dimension'],
    ])('refuses %s with 400 naming the field', async (_name, query, field) => {
      expect(await lookUp(query)).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.any(String), field } });
    });

    it("answers 404 for another website's page, whether or not it is cached", async () => {
      await cached('https://shop.example.org/secret', 1, { hostId: 2 });
      expect(await lookUp(`url=${encodeURIComponent('https://shop.example.org/secret')}`)).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: expect.any(String), field: 'url' } });
      expect((await lookUp(`url=${encodeURIComponent('https://nowhere.example.net/')}`)).status).toBe(404);
    });
  });

  describe('POST …/cache/entries/query', () => {
    beforeAll(async () => {
      for (const path of ['blog/a', 'blog/b', 'blog/c', 'news/1']) for (const dimensionId of [1, 2]) await cached(page(path), dimensionId);
    });

    it('lists the entries under a prefix, by URL then dimension, page by page, for any role', async () => {
      const first = await post('query', { prefix: page('blog/'), perPage: 4 }, reader);
      expect(first.status).toBe(200);
      expect(first.body.meta).toEqual({ page: 1, perPage: 4, total: 6, totalPages: 2 });
      expect(first.body.data.map((e: { url: string; dimension: string }) => `${e.url}|${e.dimension}`)).toEqual([
        `${page('blog/a')}|desktop`,
        `${page('blog/a')}|mobile`,
        `${page('blog/b')}|desktop`,
        `${page('blog/b')}|mobile`,
      ]);
      expect(first.body.data[0]).toEqual({ url: page('blog/a'), dimensionId: 1, dimension: 'desktop', kind: 'render', status: 'fresh', statusCode: 200, renderedAt: expect.any(String), expiresAt: expect.any(String), bytes: expect.any(Number), renderMs: 850 });
      const second = await post('query', { prefix: page('blog/'), perPage: 4, page: 2 }, reader);
      expect(second.body.data.map((e: { url: string }) => e.url)).toEqual([page('blog/c'), page('blog/c')]);
      expect((await post('query', { prefix: page('blog/'), page: 9 })).body).toEqual({ data: [], meta: { page: 9, perPage: 50, total: 6, totalPages: 1 } });
    });

    it('filters by an RE2 pattern', async () => {
      const { body } = await post('query', { pattern: '^https://www\\.example\\.com/(blog/[ac]|news/\\d+)$' });
      expect(body.meta.total).toBe(6);
      expect([...new Set(body.data.map((e: { url: string }) => e.url))]).toEqual([page('blog/a'), page('blog/c'), page('news/1')]);
    });

    it.each([
      ['neither prefix nor pattern', {}, 'prefix'],
      ['both', { prefix: page(''), pattern: 'x' }, 'pattern'],
      ['a relative prefix', { prefix: '/blog' }, 'prefix'],
      ["a prefix on another website's hostname", { prefix: 'https://shop.example.org/' }, 'prefix'],
      ['a pattern that is not RE2', { pattern: '(?<=blog)x' }, 'pattern'],
      ['a pattern repeating too much', { pattern: 'a{1000}b{1000}' }, 'pattern'],
      ['a null pattern', { pattern: null }, 'pattern'],
      ['perPage over 500', { prefix: page(''), perPage: 501 }, 'perPage'],
      ['page 0', { prefix: page(''), page: 0 }, 'page'],
      ['a page beyond any host', { prefix: page(''), page: 1e16 }, 'page'],
      ['an unknown key', { prefix: page(''), sort: 'url' }, 'sort'],
      ['invalid JSON', '{"prefix":', 'body'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      expect(await post('query', body)).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.any(String), field } });
    });

    it("never shows another website's entries", async () => {
      await cached('https://shop.example.org/blog/x', 1, { hostId: 2 });
      const { body } = await post('query', { pattern: 'blog' });
      expect(body.data.every((e: { url: string }) => e.url.startsWith(page('')))).toBe(true);
      const { token: shopReader } = await issueToken(api, { user: 'shay', website: 'shop', role: 'readonly' });
      expect((await post('query', { pattern: 'blog' }, shopReader, 'shop')).body.data.map((e: { url: string }) => e.url)).toEqual(['https://shop.example.org/blog/x']);
      expect((await post('query', { pattern: 'blog' }, shopReader, 'demo')).status).toBe(403);
    });
  });

  describe('POST …/cache/entries/invalidate', () => {
    it('counts on a dry run, changing nothing, then drops exactly those entries through a CacheInvalidated event', async () => {
      for (const path of ['shop/1', 'shop/2', 'shop/3']) for (const dimensionId of [1, 2]) await cached(page(path), dimensionId);
      await cached(page('shopping'), 1);
      const dry = await post('invalidate', { prefix: page('shop/'), dryRun: true });
      expect(dry).toEqual({ status: 200, body: { dryRun: true, entriesMatched: 6, urlsMatched: 3, entriesInvalidated: 0 } });
      expect(await cache().get(1, page('shop/1'), 1)).toBeDefined();

      const real = await post('invalidate', { prefix: page('shop/') });
      expect(real).toEqual({ status: 200, body: { dryRun: false, entriesMatched: 6, urlsMatched: 3, entriesInvalidated: 6 } });
      expect(await cache().get(1, page('shop/2'), 2)).toBeUndefined();
      expect(await cache().get(1, page('shopping'), 1)).toBeDefined();
      expect((await post('invalidate', { prefix: page('shop/'), dryRun: true })).body).toMatchObject({ entriesMatched: 0, urlsMatched: 0 });

      const seen: { type: string; payload: { urls: string[]; source: string } }[] = [];
      const subscription = await running.runtime.ports.eventLog!.subscribe({
        groupId: `public-cache-entries-reader-${mode}`,
        topics: [TOPICS.queue],
        handleBatch: async (batch) => void seen.push(...batch.records.map((r) => ({ type: r.event.type, payload: r.event.payload as { urls: string[]; source: string } }))),
      });
      try {
        await until(async () => (await subscription.lag()) === 0, { timeoutMs: 10_000 });
        expect(seen.filter((e) => e.type === 'CacheInvalidated' && e.payload.urls.includes(page('shop/1'))).map((e) => e.payload)).toEqual([
          expect.objectContaining({ hostId: 1, urls: [page('shop/1'), page('shop/2'), page('shop/3')], dimensionIds: [1, 2], source: 'public-api' }),
        ]);
      } finally {
        await subscription.stop();
      }
    }, 30_000);

    it('drops by pattern', async () => {
      await cached(page('tmp/x.html'), 1);
      await cached(page('tmp/y.json'), 1);
      expect((await post('invalidate', { pattern: '\\.html$' })).body).toMatchObject({ entriesInvalidated: 1 });
      expect(await cache().get(1, page('tmp/y.json'), 1)).toBeDefined();
    });

    it('refuses more than 10,000 entries per call naming the field, but still counts them on a dry run', async () => {
      const createdAt = Date.now();
      for (let from = 0; from <= 5_000; from += 250) {
        const paths = Array.from({ length: Math.min(250, 5_001 - from) }, (_, i) => page(`bulk/${from + i}`));
        await Promise.all(paths.flatMap((url) => [cached(url, 1, { createdAt }), cached(url, 2, { createdAt })]));
      }
      expect((await post('invalidate', { prefix: page('bulk/'), dryRun: true })).body).toEqual({ dryRun: true, entriesMatched: 10_002, urlsMatched: 5_001, entriesInvalidated: 0 });
      expect(await post('invalidate', { pattern: '/bulk/' })).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/10002 entries.*at most 10000/), field: 'pattern' } });
      expect(await cache().get(1, page('bulk/7'), 1)).toBeDefined();
      expect((await post('invalidate', { prefix: page('bulk/1') })).body).toMatchObject({ entriesInvalidated: 2 * 1_111 });
    }, 60_000);

    it('needs the manager role; refuses bad bodies and other websites', async () => {
      expect(await post('invalidate', { prefix: page('') }, reader)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      expect(await post('invalidate', { prefix: page(''), dryRun: 'yes' })).toMatchObject({ status: 400, body: { field: 'dryRun' } });
      expect(await post('invalidate', { pattern: '[' })).toMatchObject({ status: 400, body: { field: 'pattern' } });
      expect(await post('invalidate', { prefix: 'https://shop.example.org/' })).toMatchObject({ status: 400, body: { field: 'prefix' } });
      expect(await post('invalidate', { prefix: page('') }, manager, 'shop')).toMatchObject({ status: 403 });
    });
  });
});
