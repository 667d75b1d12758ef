import { TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { FRESH_RECEIPT } from '@bpc/public-api';
import { AheadClock, DaemonClient, jsonOf, removeTestDataDir, RuntimeMode, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

const page = (path: string) => `https://www.example.com/${path}`;
const zero = { total: 0, due_now: 0 };

describe.each<RuntimeMode>(['standalone', 'cluster'])('public cache operations (%s mode)', (mode) => {
  let running: RunningApps;
  let api: string;
  let daemon: DaemonClient;
  let manager: string;
  /** Moved ahead past a receipt's fresh window, where a test reads an id that will not appear (the read would wait the window out). */
  const clock = new AheadClock();

  beforeAll(async () => {
    const config = testConfig(mode, {
      scheduler: { enabled: false },
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'acme', platform_module: false },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', `e2e-public-cache-ops-${mode}`), clock);
    api = running.urls['public-api']!;
    daemon = new DaemonClient(running.urls.daemon!);
    ({ token: manager } = await issueToken(api, { user: 'mona', website: 'demo', role: 'manager' }));
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  beforeEach(async () => {
    await daemon.post('/internal/cache/queue/purge', { host_id: 1, priorities: ['high', 'normal', 'autorecache'] });
  });

  const call = async (op: 'recache' | 'invalidate', body: unknown, token = manager, website = 'demo') => {
    const response = await fetch(`${api}/api/websites/${website}/cache/${op}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: await jsonOf(response) };
  };
  const urls = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => page(`${prefix}${i}`));

  describe('POST /api/websites/{website}/cache/recache', () => {
    it('queues URLs × dimensions at normal priority by default and counts entries and URLs', async () => {
      expect(await call('recache', { urls: [page('a'), page('b')] })).toEqual({ status: 200, body: { entriesEnqueued: 4, urlsAccepted: 2, receiptId: expect.any(String) } });
      expect(await daemon.queues()).toEqual({ high: zero, normal: { total: 4, due_now: 4 }, autorecache: zero, paused: false });
    });

    it('queues at high priority ahead of the queue', async () => {
      expect(await call('recache', { urls: [page('h')], priority: 'high' })).toEqual({ status: 200, body: { entriesEnqueued: 2, urlsAccepted: 1, receiptId: expect.any(String) } });
      expect((await daemon.queues()).high.total).toBe(2);
    });

    it('removes duplicates (after normalisation) silently', async () => {
      const answer = await call('recache', { urls: [page('d'), page('d'), 'HTTPS://WWW.EXAMPLE.COM:443/d#top', page('e')] });
      expect(answer).toEqual({ status: 200, body: { entriesEnqueued: 4, urlsAccepted: 2, receiptId: expect.any(String) } });
    });

    it('accepts URLs that a rule ignores but queues nothing for them', async () => {
      expect(await call('recache', { urls: [page('admin/x'), page('f')] })).toEqual({ status: 200, body: { entriesEnqueued: 2, urlsAccepted: 2, receiptId: expect.any(String) } });
    });

    it('takes up to 100 URLs at high and 1,000 at normal priority, and refuses more', async () => {
      expect((await call('recache', { urls: urls(100), priority: 'high' })).body).toEqual({ entriesEnqueued: 200, urlsAccepted: 100, receiptId: expect.any(String) });
      expect(await call('recache', { urls: urls(101), priority: 'high' })).toEqual({
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: 'urls must hold 1 to 100 entries when priority is "high", got 101', field: 'urls' },
      });
      expect((await call('recache', { urls: urls(1000) })).body).toEqual({ entriesEnqueued: 2000, urlsAccepted: 1000, receiptId: expect.any(String) });
      expect(await call('recache', { urls: urls(1001) })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'urls' } });
    });

    it.each([
      ['missing urls', {}, 'urls'],
      ['empty urls', { urls: [] }, 'urls'],
      ['a URL that is not a string', { urls: [page('a'), 5] }, 'urls'],
      ['a non-HTTP URL', { urls: [page('a'), 'ftp://www.example.com/x'] }, 'urls[1]'],
      ['a relative URL', { urls: ['/pricing'] }, 'urls[0]'],
      ['a URL on another host', { urls: [page('a'), 'https://shop.example.org/x'] }, 'urls[1]'],
      ['an unknown priority', { urls: [page('a')], priority: 'autorecache' }, 'priority'],
      ['a null priority', { urls: [page('a')], priority: null }, 'priority'],
      ['an unknown key', { urls: [page('a')], dimension_ids: [1] }, 'dimension_ids'],
      ['invalid JSON', '{"urls":', 'body'],
    ])('refuses %s with 400 VALIDATION_FAILED naming the field, queuing nothing', async (_name, body, field) => {
      const answer = await call('recache', body);
      expect(answer).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.any(String), field } });
      expect((await daemon.queues()).normal.total).toBe(0);
    });
  });

  describe('POST /api/websites/{website}/cache/invalidate', () => {
    const cache = () => running.runtime.ports.cacheStore!;
    const cached = (path: string, dimensionId: number) =>
      cache().put(
        { hostId: 1, url: page(path), dimensionId, kind: 'render', statusCode: 200, headers: { 'content-type': 'text/html' }, durationMs: 5, createdAt: Date.now(), expiresAt: Date.now() + 3_600_000 },
        Buffer.from(`<html>${path}</html>`),
      );

    it('drops the cache entries at once, counting entries over dimensions and distinct URLs', async () => {
      await cached('i1', 1);
      await cached('i1', 2);
      await cached('i2', 1);
      const answer = await call('invalidate', { urls: [page('i1'), page('i2'), page('i1'), page('never-cached')] });
      expect(answer).toEqual({ status: 200, body: { entriesInvalidated: 3, urlsAccepted: 3 } });
      expect(await cache().get(1, page('i1'), 1)).toBeUndefined();
      expect(await cache().get(1, page('i1'), 2)).toBeUndefined();
      expect(await cache().get(1, page('i2'), 1)).toBeUndefined();
      expect((await call('invalidate', { urls: [page('i1')] })).body).toEqual({ entriesInvalidated: 0, urlsAccepted: 1 });
    });

    it('takes 1 to 1,000 URLs', async () => {
      expect((await call('invalidate', { urls: urls(1000) })).body).toEqual({ entriesInvalidated: 0, urlsAccepted: 1000 });
      expect(await call('invalidate', { urls: urls(1001) })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'urls' } });
      expect(await call('invalidate', { urls: [] })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'urls' } });
    });

    it('refuses a URL on another host and leaves the cache alone', async () => {
      await cached('keep', 1);
      const answer = await call('invalidate', { urls: [page('keep'), 'http://evil.example.net/keep'] });
      expect(answer).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/^urls\[1\] is not on host 1/), field: 'urls[1]' } });
      expect(await cache().get(1, page('keep'), 1)).toBeDefined();
    });
  });

  describe('GET /api/websites/{website}/cache/queue', () => {
    const queue = async (token = manager, website = 'demo') => {
      const response = await fetch(`${api}/api/websites/${website}/cache/queue`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await jsonOf(response) };
    };
    const none = { total: 0, due: 0 };
    const drained = { seconds: 0, completedPerMinute: 0 };

    it("counts the host's high and normal entries as a recache adds them, as the daemon's status does", async () => {
      expect(await queue()).toEqual({ status: 200, body: { hostId: 1, queues: { high: none, normal: none }, paused: false, pausedUntil: null, drainEstimate: { high: drained, normal: drained } } });
      await call('recache', { urls: [page('q1')], priority: 'high' });
      expect((await queue()).body.queues).toEqual({ high: { total: 2, due: 2 }, normal: none });
      await call('recache', { urls: [page('q2'), page('q3')] });
      expect((await queue()).body.queues).toEqual({ high: { total: 2, due: 2 }, normal: { total: 4, due: 4 } });
      const daemonSays = await daemon.queues();
      expect((await queue()).body.queues).toEqual({ high: { total: daemonSays.high.total, due: daemonSays.high.due_now }, normal: { total: daemonSays.normal.total, due: daemonSays.normal.due_now } });
    });

    it('estimates no drain time while nothing completed (the scheduler is off here), as the daemon does', async () => {
      await call('recache', { urls: [page('d1')] });
      expect((await queue()).body.drainEstimate).toEqual({ high: drained, normal: { seconds: null, completedPerMinute: 0 } });
      expect(await daemon.drainEstimate()).toEqual({
        high: { seconds: 0, completed_per_minute: 0 },
        normal: { seconds: null, completed_per_minute: 0 },
        autorecache: { seconds: 0, completed_per_minute: 0 },
      });
    });

    it('shows a pause of the host with its end, and its resumption', async () => {
      const pause = await daemon.post('/internal/cache/recache/pause', { host_id: 1 });
      try {
        const { body } = await queue();
        expect(body).toMatchObject({ hostId: 1, paused: true, pausedUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
        expect(Math.floor(Date.parse(body.pausedUntil) / 1000)).toBe(pause.body.data.expires_at);
      } finally {
        await daemon.post('/internal/cache/recache/resume', { host_id: 1 });
      }
      expect((await queue()).body).toMatchObject({ paused: false, pausedUntil: null });
    });

    it("is read by any role without the platform module, on the website's own host only", async () => {
      const { token: reader } = await issueToken(api, { user: 'rhea', website: 'demo', role: 'readonly' });
      expect(await queue(reader)).toMatchObject({ status: 200, body: { hostId: 1 } });
      const { token: shopReader } = await issueToken(api, { user: 'shay', website: 'shop', role: 'readonly' });
      expect(await queue(shopReader, 'shop')).toEqual({
        status: 200,
        body: { hostId: 2, queues: { high: none, normal: none }, paused: false, pausedUntil: null, drainEstimate: { high: drained, normal: drained } },
      });
      expect(await queue(shopReader, 'demo')).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      expect((await fetch(`${api}/api/websites/demo/cache/queue`)).status).toBe(401);
    });
  });

  describe('GET /api/websites/{website}/cache/receipts/{receiptId}', () => {
    const receipt = async (receiptId: string, query = '', token = manager, website = 'demo') => {
      const response = await fetch(`${api}/api/websites/${website}/cache/receipts/${encodeURIComponent(receiptId)}${query}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await jsonOf(response) };
    };

    it('reports every URL × dimension of a recache as queued until the scheduler takes it (it is off here)', async () => {
      const { body: accepted } = await call('recache', { urls: [page('r1'), page('r2'), page('admin/r3')], priority: 'high' });
      const answer = await receipt(accepted.receiptId);
      expect(answer).toEqual({
        status: 200,
        body: {
          receiptId: accepted.receiptId,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          source: 'api',
          done: false,
          totals: { entries: 4, queued: 4, rendering: 0, stored: 0, kept: 0, failed: 0 },
          data: [
            { url: page('r1'), dimensionId: 1, dimension: 'desktop', state: 'queued' },
            { url: page('r1'), dimensionId: 2, dimension: 'mobile', state: 'queued' },
            { url: page('r2'), dimensionId: 1, dimension: 'desktop', state: 'queued' },
            { url: page('r2'), dimensionId: 2, dimension: 'mobile', state: 'queued' },
          ],
          meta: { page: 1, perPage: 100, total: 4, totalPages: 1 },
        },
      });
      expect((await receipt(accepted.receiptId, '?state=stored')).body).toMatchObject({ data: [], meta: { total: 0, totalPages: 0 } });
      expect((await receipt(accepted.receiptId, '?page=2&perPage=3')).body.data).toEqual([{ url: page('r2'), dimensionId: 2, dimension: 'mobile', state: 'queued' }]);
    });

    it('reports a daemon recache too, through the id in its later form', async () => {
      const { body } = await daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('dr')], dimension_ids: [2], priority: 'normal' });
      expect(body.data.receipt_id).toEqual(expect.any(String));
      expect((await receipt(body.data.receipt_id)).body).toMatchObject({ source: 'daemon', totals: { entries: 1, queued: 1 }, data: [{ url: page('dr'), dimensionId: 2 }] });
      const earlier = await daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('dr')], priority: 'normal' }, { 'x-response-envelope': 'status' });
      expect(earlier.body.data?.receipt_id).toBeUndefined();
    });

    it("answers 404 RECEIPT_NOT_FOUND for another website's receipt and for an unknown id", async () => {
      const { body: accepted } = await call('recache', { urls: [page('mine')] });
      const { token: shopReader } = await issueToken(api, { user: 'sid', website: 'shop', role: 'readonly' });
      clock.advance(FRESH_RECEIPT.mintedWithinMs);
      expect(await receipt(accepted.receiptId, '', shopReader, 'shop')).toEqual({ status: 404, body: { code: 'RECEIPT_NOT_FOUND', message: expect.any(String) } });
      expect(await receipt('00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { code: 'RECEIPT_NOT_FOUND' } });
      expect((await receipt(accepted.receiptId, '', shopReader, 'demo')).status).toBe(403);
    });

    it('is read by any role; bad paging or state is 400 naming the parameter', async () => {
      const { body: accepted } = await call('recache', { urls: [page('ro')] });
      const { token: reader } = await issueToken(api, { user: 'rory', website: 'demo', role: 'readonly' });
      expect((await receipt(accepted.receiptId, '', reader)).status).toBe(200);
      expect(await receipt(accepted.receiptId, '?perPage=501')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'perPage' } });
      expect(await receipt(accepted.receiptId, '?page=0')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'page' } });
      expect(await receipt(accepted.receiptId, '?page=2')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'page' } });
      expect(await receipt(accepted.receiptId, '?state=done')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'state' } });
      expect(await receipt(accepted.receiptId, '?sort=url')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'sort' } });
    });
  });

  it('records RecacheRequested and CacheInvalidated with source public-api in the event log, like the daemon does', async () => {
    await call('recache', { urls: [page('ev'), page('ev')], priority: 'high' });
    await call('invalidate', { urls: [page('ev')] });
    const seen: { type: string; payload: unknown }[] = [];
    const subscription = await running.runtime.ports.eventLog!.subscribe({
      groupId: `public-cache-ops-reader-${mode}`,
      topics: [TOPICS.queue],
      handleBatch: async (batch) => void seen.push(...batch.records.map((r) => ({ type: r.event.type, payload: r.event.payload }))),
    });
    try {
      const mine = () => seen.filter((e) => JSON.stringify(e.payload).includes(page('ev')));
      // Both calls answered once their events were appended: read up to the log's end, nothing of theirs can come later.
      await until(async () => (await subscription.lag()) === 0, { timeoutMs: 10_000 });
      expect(mine()).toEqual([
        { type: 'RecacheRequested', payload: expect.objectContaining({ hostId: 1, urls: [page('ev')], dimensionIds: [1, 2], priority: 'high', source: 'public-api', receiptId: expect.any(String) }) },
        { type: 'CacheInvalidated', payload: expect.objectContaining({ hostId: 1, urls: [page('ev')], dimensionIds: [1, 2], source: 'public-api' }) },
      ]);
    } finally {
      await subscription.stop();
    }
  });

  describe('authorisation', () => {
    it.each(['recache', 'invalidate'] as const)('%s needs the manager role or above (readonly gets 403 FORBIDDEN, admin passes)', async (op) => {
      const { token: reader } = await issueToken(api, { user: `rita-${op}`, website: 'demo', role: 'readonly' });
      const refused = await call(op, { urls: [page('r')] }, reader);
      expect(refused).toEqual({ status: 403, body: { code: 'FORBIDDEN', message: expect.stringMatching(/manager role or above/) } });
      const { token: admin } = await issueToken(api, { user: `adam-${op}`, website: 'demo', role: 'admin' });
      expect((await call(op, { urls: [page('r')] }, admin)).status).toBe(200);
    });

    it('refuses another website and does not need the platform module', async () => {
      expect((await call('recache', { urls: [page('a')] }, manager, 'shop')).status).toBe(403);
      const { token } = await issueToken(api, { user: 'sam', website: 'shop', role: 'manager' });
      expect(await call('recache', { urls: ['https://shop.example.org/a'] }, token, 'shop')).toEqual({ status: 200, body: { entriesEnqueued: 1, urlsAccepted: 1, receiptId: expect.any(String) } });
      expect(await call('recache', { urls: [page('a')] }, token, 'shop')).toMatchObject({ status: 400, body: { field: 'urls[0]' } });
    });

    it('answers 401 without a token before reading the body', async () => {
      const response = await fetch(`${api}/api/websites/demo/cache/recache`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"urls":' });
      expect(response.status).toBe(401);
      expect((await jsonOf(response)).code).toBe('UNAUTHENTICATED');
    });
  });
});
