import { HOST_PAUSE_MS } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import type { QueueStore } from '@bpc/queue-store';
import type { CacheStore } from '@bpc/cache-store';
import { DaemonClient, RuntimeMode, TEST_INTERNAL_KEY, TestClock, testConfig } from '@bpc/testing';
import { daemonApp } from '../../apps/daemon/src/daemon.app';
import { projectorApp } from '../../apps/projector/src/projector.app';

const url = (path: string) => `https://www.example.com/${path}`;
const zero = { total: 0, due_now: 0 };

describe.each<RuntimeMode>(['standalone', 'cluster'])('daemon API contract (%s mode)', (mode) => {
  let running: RunningApps;
  let daemon: DaemonClient;
  let store: QueueStore;
  let cache: CacheStore;
  const clock = new TestClock();

  beforeAll(async () => {
    // No draining here: these tests read the queues themselves.
    running = await startApps([projectorApp, daemonApp], testConfig(mode, { scheduler: { enabled: false } }), createLogger('silent', 'daemon-api'), clock);
    daemon = new DaemonClient(running.urls.daemon!);
    store = running.runtime.ports.queueStore!;
    cache = running.runtime.ports.cacheStore!;
  });

  afterAll(() => running?.close());

  beforeEach(async () => {
    await daemon.post('/internal/cache/recache/resume', { host_id: 1 });
    await daemon.post('/internal/cache/queue/purge', { host_id: 1, priorities: ['high', 'normal', 'autorecache'] });
  });

  describe('POST /internal/cache/recache', () => {
    it('queues one entry per URL and dimension and reports the later form', async () => {
      const answer = await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('a'), url('b')], priority: 'normal' });
      expect(answer).toEqual({
        status: 200,
        body: { success: true, data: { host_id: 1, urls_count: 2, dimension_ids_count: 2, entries_enqueued: 4, priority: 'normal', paused: false, receipt_id: expect.any(String) } },
      });
      expect(await daemon.queues()).toEqual({ high: zero, normal: { total: 4, due_now: 4 }, autorecache: zero, paused: false });
    });

    it('never duplicates an entry, and a high request moves a waiting normal entry to high', async () => {
      await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('a')], priority: 'normal' });
      const again = await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('a')], priority: 'normal' });
      expect(again.body.data.entries_enqueued).toBe(2);
      expect((await daemon.queues()).normal.total).toBe(2);
      await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('a')], dimension_ids: [2], priority: 'high' });
      const queues = await daemon.queues();
      expect([queues.high.total, queues.normal.total]).toEqual([1, 1]);
    });

    it('counts only the named dimensions, reports mode, and stores entries while paused', async () => {
      await daemon.post('/internal/cache/recache/pause', { host_id: 1 });
      const answer = await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('p')], dimension_ids: [2], priority: 'high', mode: 'bypass' });
      expect(answer.body.data).toEqual({ host_id: 1, urls_count: 1, dimension_ids_count: 1, entries_enqueued: 1, priority: 'high', paused: true, mode: 'bypass', receipt_id: expect.any(String) });
      expect((await daemon.queues()).high.total).toBe(1);
    });

    it('leaves out the later additions in the earlier form, asked per request', async () => {
      const answer = await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('e')], priority: 'high', mode: 'render' }, { 'x-response-envelope': 'status' });
      expect(answer.body).toEqual({ status: 'ok', data: { host_id: 1, urls_count: 1, dimension_ids_count: 2, entries_enqueued: 2, priority: 'high' } });
      const status = await daemon.get('/status', { 'x-response-envelope': 'status' });
      expect(status.body.status).toBe('ok');
      expect(status.body.data.queues['1']).not.toHaveProperty('paused');
      expect(status.body.data.queues['1']).not.toHaveProperty('drain_estimate');
    });

    it('gives each host a drain estimate per queue in /status: seconds (null without a recent rate) and the completion rate', async () => {
      await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('de')], priority: 'normal' });
      const { body } = await daemon.get('/status');
      for (const host of Object.values<Record<string, unknown>>(body.data.queues)) {
        expect(Object.keys(host.drain_estimate as object).sort()).toEqual(['autorecache', 'high', 'normal']);
      }
      // No scheduler runs here: entries wait, nothing completed, so the normal queue has no estimate yet; empty queues drain in 0 s.
      expect(body.data.queues['1'].drain_estimate).toEqual({
        high: { seconds: 0, completed_per_minute: 0 },
        normal: { seconds: null, completed_per_minute: 0 },
        autorecache: { seconds: 0, completed_per_minute: 0 },
      });
    });

    it.each([
      ['invalid JSON', '{"host_id": 1,', /^invalid JSON/],
      ['a non-object body', '[1,2]', /^request body must be a JSON object/],
      ['missing host_id', { urls: [url('a')], priority: 'high' }, /^host_id is required/],
      ['missing urls', { host_id: 1, priority: 'high' }, /^urls is required/],
      ['missing priority', { host_id: 1, urls: [url('a')] }, /^priority is required/],
      ['priority autorecache', { host_id: 1, urls: [url('a')], priority: 'autorecache' }, /^priority must be "high" or "normal"/],
      ['priority in upper case', { host_id: 1, urls: [url('a')], priority: 'HIGH' }, /^priority must be/],
      ['a bad mode', { host_id: 1, urls: [url('a')], priority: 'high', mode: 'prerender' }, /^mode must be "render" or "bypass"/],
      ['an unknown host', { host_id: 99, urls: [url('a')], priority: 'high' }, /^host_id 99: host not found/],
      ['a string host_id', { host_id: '1', urls: [url('a')], priority: 'high' }, /^host_id must be an integer/],
      ['an unconfigured dimension', { host_id: 1, urls: [url('a')], dimension_ids: [1, 7], priority: 'high' }, /^dimension_ids\[1\]: dimension 7 is not configured/],
      ['dimension_ids null (null is not "omitted")', { host_id: 1, urls: [url('a')], dimension_ids: null, priority: 'high' }, /^dimension_ids must be an array/],
      ['mode null', { host_id: 1, urls: [url('a')], priority: 'high', mode: null }, /^mode must be/],
      ['no URLs', { host_id: 1, urls: [], priority: 'high' }, /^urls must hold 1 to 10000 entries/],
      ['urls as a string', { host_id: 1, urls: 'https://www.example.com/a', priority: 'high' }, /^urls must be an array of URLs$/],
      ['a body nested 5,000 levels deep', `{"host_id":1,"urls":["${url('a')}"],"priority":"high","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`, /^request body nests deeper than 32 levels$/],
      ['10,001 URLs', { host_id: 1, urls: Array.from({ length: 10_001 }, (_, i) => url(`u${i}`)), priority: 'normal' }, /^urls must hold 1 to 10000 entries/],
      ['a non-HTTP URL', { host_id: 1, urls: [url('a'), 'ftp://www.example.com/x'], priority: 'high' }, /^urls\[1\] is not an absolute http\(s\) URL/],
      ['a URL of another host', { host_id: 1, urls: ['https://shop.example.org/x'], priority: 'high' }, /^urls\[0\] is not on host 1/],
    ])('rejects %s with 400 naming the field, changing nothing', async (_name, body, message) => {
      const answer = await daemon.post('/internal/cache/recache', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 'error', message: expect.stringMatching(message) });
      expect((await daemon.queues()).high.total + (await daemon.queues()).normal.total).toBe(0);
    });

    it('accepts exactly 10,000 URLs', async () => {
      const urls = Array.from({ length: 10_000 }, (_, i) => url(`bulk${i}`));
      const answer = await daemon.post('/internal/cache/recache', { host_id: 1, urls, dimension_ids: [1], priority: 'normal' });
      expect(answer.body.data.entries_enqueued).toBe(10_000);
    });

    it('takes URLs that grow past 16 MiB once normalised only where the log holds them: 400 naming urls on the file log; on Kafka the limit of the brokers decides (this mock has none; the event goes compressed)', async () => {
      // 2,200 URLs of 2,700 characters whose spaces normalise to %20: a 6 MB body, a 17 MB event.
      const urls = Array.from({ length: 2_200 }, (_, i) => url(`${i}-${' '.repeat(2_600)}x`));
      const answer = await daemon.post('/internal/cache/recache', { host_id: 1, urls, dimension_ids: [1], priority: 'normal' });
      if (mode === 'standalone') {
        expect(answer).toEqual({ status: 400, body: { status: 'error', message: expect.stringMatching(/^urls take \d+ bytes once normalised, more than the event log takes as one change \(16777216 bytes\): send them in smaller requests$/) } });
        expect((await daemon.queues()).normal.total).toBe(0);
      } else {
        expect(answer.body.data.entries_enqueued).toBe(2_200);
      }
    });
  });

  describe('POST /internal/cache/queue/purge', () => {
    beforeEach(async () => {
      await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('h1'), url('h2')], priority: 'high' });
      await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url('n1')], priority: 'normal' });
      await store.enqueue({ hostId: 1, priority: 'autorecache', dueAt: clock.now(), items: [{ url: url('auto'), dimensionId: 1 }], entryId: 'auto-1' });
    });

    it.each([
      ['omitted', {}],
      ['empty', { priorities: [] }],
    ])('with priorities %s purges high and normal, summed, and leaves autorecache', async (_name, extra) => {
      const answer = await daemon.post('/internal/cache/queue/purge', { host_id: 1, ...extra });
      expect(answer.body).toEqual({ success: true, data: { entries_purged: 6 } });
      expect(await daemon.queues()).toEqual({ high: zero, normal: zero, autorecache: { total: 1, due_now: 1 }, paused: false });
    });

    it('purges autorecache only when named, and counts duplicates once', async () => {
      const answer = await daemon.post('/internal/cache/queue/purge', { host_id: 1, priorities: ['autorecache', 'normal', 'normal'] });
      expect(answer.body.data.entries_purged).toBe(3);
      expect((await daemon.queues()).high.total).toBe(4);
    });

    it.each([
      ['an upper-case priority', { host_id: 1, priorities: ['HIGH'] }],
      ['an unknown priority', { host_id: 1, priorities: ['urgent'] }],
      ['missing host_id', { priorities: ['high'] }],
      ['an unknown host', { host_id: 42 }],
      ['priorities not an array', { host_id: 1, priorities: 'high' }],
    ])('rejects %s with 400 and purges nothing', async (_name, body) => {
      const answer = await daemon.post('/internal/cache/queue/purge', body);
      expect(answer.status).toBe(400);
      expect(answer.body.status).toBe('error');
      expect((await daemon.queues()).high.total).toBe(4);
    });
  });

  describe('pause and resume per host', () => {
    it('pauses for three hours, overwrites the deadline, resumes idempotently, and expires by itself', async () => {
      const first = await daemon.post('/internal/cache/recache/pause', { host_id: 1 });
      expect(first.body).toEqual({ success: true, data: { paused: true, expires_at: Math.floor((clock.now() + HOST_PAUSE_MS) / 1000) } });
      expect((await daemon.queues()).paused).toBe(true);

      clock.advance(60_000);
      const second = await daemon.post('/internal/cache/recache/pause', { host_id: 1 });
      expect(second.body.data.expires_at).toBe(first.body.data.expires_at + 60);

      expect((await daemon.post('/internal/cache/recache/resume', { host_id: 1 })).body).toEqual({ success: true, data: { paused: false } });
      expect((await daemon.post('/internal/cache/recache/resume', { host_id: 1 })).body).toEqual({ success: true, data: { paused: false } });
      expect((await daemon.queues()).paused).toBe(false);

      await daemon.post('/internal/cache/recache/pause', { host_id: 1 });
      clock.advance(HOST_PAUSE_MS - 1000);
      expect((await daemon.queues()).paused).toBe(true);
      clock.advance(1000);
      expect((await daemon.queues()).paused).toBe(false);
    });

    it.each(['pause', 'resume'])('%s rejects a missing or unknown host with 400', async (action) => {
      expect((await daemon.post(`/internal/cache/recache/${action}`, {})).status).toBe(400);
      expect((await daemon.post(`/internal/cache/recache/${action}`, { host_id: 5 })).body).toEqual({ status: 'error', message: 'host_id 5: host not found' });
      expect((await daemon.post(`/internal/cache/recache/${action}`, '{')).status).toBe(400);
    });
  });

  describe('POST /internal/cache/invalidate', () => {
    const cached = (path: string, dimensionId: number) =>
      cache.put(
        { hostId: 1, url: url(path), dimensionId, kind: 'render', statusCode: 200, headers: { 'content-type': 'text/html' }, durationMs: 5, createdAt: clock.now(), expiresAt: clock.now() + 3_600_000 },
        Buffer.from(`<html>${path}</html>`),
      );

    it('drops the cache entries at once and counts only those that existed', async () => {
      await cached('i1', 1);
      await cached('i1', 2);
      await cached('i2', 1);
      const answer = await daemon.post('/internal/cache/invalidate', { host_id: 1, urls: [url('i1'), url('i2'), url('never-cached')] });
      expect(answer.body).toEqual({ success: true, data: { host_id: 1, urls_count: 3, dimension_ids_count: 2, entries_invalidated: 3 } });
      expect(await cache.get(1, url('i1'), 1)).toBeUndefined();
      expect(await cache.get(1, url('i2'), 1)).toBeUndefined();
      const again = await daemon.post('/internal/cache/invalidate', { host_id: 1, urls: [url('i1')] });
      expect(again.body.data.entries_invalidated).toBe(0);
    });

    it('drops only the named dimensions', async () => {
      await cached('d1', 1);
      await cached('d1', 2);
      const answer = await daemon.post('/internal/cache/invalidate', { host_id: 1, urls: [url('d1')], dimension_ids: [2] });
      expect(answer.body.data).toEqual({ host_id: 1, urls_count: 1, dimension_ids_count: 1, entries_invalidated: 1 });
      expect(await cache.get(1, url('d1'), 1)).toBeDefined();
    });

    it.each([
      ['missing urls', { host_id: 1 }, /^urls is required/],
      ['missing host_id', { urls: [url('a')] }, /^host_id is required/],
      ['an unknown host', { host_id: 3, urls: [url('a')] }, /^host_id 3: host not found/],
      ['an unconfigured dimension', { host_id: 1, urls: [url('a')], dimension_ids: [9] }, /^dimension_ids\[0\]: dimension 9 is not configured/],
      ['a non-HTTP URL', { host_id: 1, urls: ['mailto:x@example.com'] }, /^urls\[0\] is not an absolute http\(s\) URL/],
    ])('rejects %s with 400', async (_name, body, message) => {
      const answer = await daemon.post('/internal/cache/invalidate', body);
      expect(answer).toEqual({ status: 400, body: { status: 'error', message: expect.stringMatching(message) } });
    });
  });

  describe('authentication and routing', () => {
    const endpoints: [string, string][] = [
      ['POST', '/internal/cache/recache'],
      ['POST', '/internal/cache/queue/purge'],
      ['POST', '/internal/cache/recache/pause'],
      ['POST', '/internal/cache/recache/resume'],
      ['POST', '/internal/cache/invalidate'],
      ['GET', '/status'],
      ['POST', '/internal/scheduler/pause'],
      ['POST', '/internal/scheduler/resume'],
    ];

    it.each(endpoints)('%s %s answers 401 without or with a wrong X-Internal-Auth', async (method, path) => {
      for (const headers of [{}, { 'x-internal-auth': 'wrong' }, { 'x-internal-auth': '' }] as Record<string, string>[]) {
        const response = await fetch(`${daemon.baseUrl}${path}`, { method, headers });
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ status: 'error', message: 'missing or invalid X-Internal-Auth' });
      }
    });

    it('answers 403 on scheduler control while scheduler_control_api is off', async () => {
      expect(await daemon.post('/internal/scheduler/pause')).toEqual({
        status: 403,
        body: { status: 'error', message: 'the scheduler control API is not enabled (scheduler_control_api: false)' },
      });
    });

    it('answers 404 in the error envelope for an unknown endpoint', async () => {
      expect(await daemon.get('/internal/nothing')).toEqual({ status: 404, body: { status: 'error', message: 'invalid endpoint' } });
    });

    it('answers a known endpoint asked with another method 405 with Allow, in the error envelope', async () => {
      for (const [method, path, allow] of [
        ['GET', '/internal/cache/recache', 'POST'],
        ['DELETE', '/internal/cache/queue/purge', 'POST'],
        ['POST', '/status', 'GET, HEAD'],
      ]) {
        const response = await fetch(`${daemon.baseUrl}${path}`, { method, headers: { 'x-internal-auth': TEST_INTERNAL_KEY } });
        expect({ path, status: response.status, allow: response.headers.get('allow'), body: await response.json() }).toEqual({
          path,
          status: 405,
          allow,
          body: { status: 'error', message: `method ${method} is not allowed on this endpoint; allowed: ${allow}` },
        });
      }
    });

    it('says the content type is wrong when a body is not sent as JSON, and changes nothing', async () => {
      const body = JSON.stringify({ host_id: 1, urls: [url('form')], priority: 'high' });
      for (const contentType of ['application/x-www-form-urlencoded', 'text/plain']) {
        expect(await daemon.post('/internal/cache/recache', body, { 'content-type': contentType })).toEqual({
          status: 400,
          body: { status: 'error', message: `wrong content type (Content-Type ${contentType}): send the body as JSON with Content-Type: application/json` },
        });
      }
      expect((await daemon.queues()).high).toEqual(zero);
    });
  });
});

describe('scheduler control enabled', () => {
  let running: RunningApps;
  beforeAll(async () => {
    running = await startApps([projectorApp, daemonApp], testConfig('standalone', { scheduler_control_api: true, scheduler: { enabled: false } }), createLogger('silent', 'sched'));
  });
  afterAll(() => running?.close());

  it('pauses and resumes the scheduler with the documented messages', async () => {
    const daemon = new DaemonClient(running.urls.daemon!);
    expect(await daemon.post('/internal/scheduler/pause')).toEqual({ status: 200, body: { success: true, data: { message: 'Scheduler paused' }, message: 'Scheduler paused' } });
    expect((await daemon.post('/internal/scheduler/resume')).body.message).toBe('Scheduler resumed');
    // As curl sends it with -H 'Content-Type: application/json' and no body.
    expect((await daemon.post('/internal/scheduler/pause', '', { 'content-type': 'application/json' })).status).toBe(200);
    expect(await daemon.post('/internal/cache/recache/pause', '', { 'content-type': 'application/json' })).toEqual({
      status: 400,
      body: { status: 'error', message: 'request body must be a JSON object' },
    });
  });

  it('refuses a bad X-Response-Envelope before anything changes', async () => {
    const daemon = new DaemonClient(running.urls.daemon!);
    const before = await daemon.queues();
    const answer = await daemon.post('/internal/cache/recache', { host_id: 1, urls: ['https://www.example.com/env'], priority: 'high' }, { 'x-response-envelope': 'bogus' });
    expect(answer).toEqual({ status: 400, body: { status: 'error', message: 'X-Response-Envelope must be one of: success, status' } });
    expect((await daemon.post('/internal/cache/recache/pause', { host_id: 1 }, { 'x-response-envelope': 'bogus' })).status).toBe(400);
    expect(await daemon.queues()).toEqual(before);
  });
});
