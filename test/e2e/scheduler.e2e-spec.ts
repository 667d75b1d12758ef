import { FileEventLog, LogRecord } from '@bpc/event-log';
import { RECACHE_GAVE_UP, RECACHE_RETRY_SCHEDULED, RECACHE_SUCCEEDED, RENDER_RECORDED, RenderRecorded, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { DaemonClient, metricValue, OriginAnswer, RuntimeMode, TestClock, testConfig, TestOrigin, until as waitUntil } from '@bpc/testing';
import path from 'node:path';
import { claimLeaseMs } from '../../libs/features/daemon/src/scheduler/scheduler-policy';
import { daemonApp } from '../../apps/daemon/src/daemon.app';
import { projectorApp } from '../../apps/projector/src/projector.app';

const page = (p: string) => `https://www.example.com${p}`;

/** The shared `until`, polling every 20 ms (the scheduler here ticks every 25 ms). */
const until = (condition: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void> => waitUntil(condition, { timeoutMs, intervalMs: 20 });

interface Harness {
  running: RunningApps;
  daemon: DaemonClient;
  origin: TestOrigin;
  clock: TestClock;
}

async function startWithOrigin(
  mode: RuntimeMode,
  answer: (path: string, hit: number) => OriginAnswer,
  overrides: Record<string, unknown> = {},
  action: 'bypass' | 'render' = 'bypass',
): Promise<Harness> {
  const origin = new TestOrigin(answer);
  const originUrl = await origin.start();
  const clock = new TestClock();
  const config = testConfig(mode, {
    scheduler: { tick_ms: 25 },
    recache: { max_concurrent: 2, timeout_per_url: 1 },
    hosts: [
      { host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action }] },
      { host_id: 2, hostnames: ['shop.example.org'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action }] },
    ],
    ...overrides,
  });
  const running = await startApps([projectorApp, daemonApp], config, createLogger('silent', 'scheduler'), clock);
  return { running, daemon: new DaemonClient(running.urls.daemon!), origin, clock };
}

/** Failed attempts the daemon has settled (its retry time is set in the same step). */
async function failedAttempts(h: Harness): Promise<number> {
  return metricValue(await (await fetch(`${h.running.urls.daemon}/metrics`)).text(), 'bpc_recache_attempts_total{outcome="failed"}');
}

/** Attempts the daemon has settled, whatever their outcome. */
async function settledAttempts(h: Harness): Promise<number> {
  const text = await (await fetch(`${h.running.urls.daemon}/metrics`)).text();
  return ['stored', 'kept', 'failed'].reduce((sum, outcome) => sum + metricValue(text, `bpc_recache_attempts_total{outcome="${outcome}"}`), 0);
}

async function stop(h?: Harness): Promise<void> {
  await h?.running.close();
  await h?.origin.stop();
}

const ok = (delayMs = 0): OriginAnswer => ({ status: 200, body: '<html><body>fresh</body></html>', delayMs });

/** Paths under /marker answer 200 whatever the test's origin does (see markerFetched). */
const withMarkers =
  (answer: (path: string, hit: number) => OriginAnswer) =>
  (path: string, hit: number): OriginAnswer =>
    path.startsWith('/marker') ? ok() : answer(path, hit);

/**
 * Queues `marker` (high, host 1) and waits until the origin saw it. With one
 * attempt at a time (`recache.max_concurrent: 1`), and entries pulled earlier
 * dispatched first, an entry that was ready when the marker came has reached
 * the origin before it.
 */
async function markerFetched(h: Harness, marker: string): Promise<void> {
  await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page(marker)], priority: 'high' });
  await until(() => h.origin.hits.get(marker) === 1);
}

describe.each<RuntimeMode>(['standalone', 'cluster'])('scheduler (%s mode)', (mode) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await stop(h);
    h = undefined;
  });

  it('drains the queue into the cache with at most max_concurrent attempts in flight', async () => {
    h = await startWithOrigin(mode, () => ok(20));
    const urls = Array.from({ length: 30 }, (_, i) => page(`/p${i}`));
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls, priority: 'normal' });
    const cache = h.running.runtime.ports.cacheStore!;
    await until(async () => (await h!.daemon.queues()).normal.total === 0 && h!.origin.totalHits() >= 30);
    await until(async () => (await cache.get(1, page('/p29'), 1)) !== undefined);
    // The last attempt is settled (its entry leaves the internal queue) a moment after its page is stored; with both queues empty, nothing is left to fetch.
    await until(async () => (await h!.daemon.get('/status')).body.data.internal_queue.size === 0);
    expect(h.origin.totalHits()).toBe(30);
    expect(h.origin.maxInFlight).toBeLessThanOrEqual(2);
    const hit = await cache.get(1, page('/p0'), 1);
    expect(hit?.entry).toMatchObject({ kind: 'bypass', statusCode: 200 });
    expect((await hit!.readBody()).toString()).toContain('fresh');
    const status = (await h.daemon.get('/status')).body.data;
    expect(status.daemon.last_tick).toEqual(expect.any(String));
    expect(status.internal_queue).toEqual({ size: 0, max_size: 100, capacity_used_percent: 0 });
  });

  it('pulls high before normal, even when the high entry is due later and sorts last', async () => {
    h = await startWithOrigin(mode, () => ok(5), { recache: { max_concurrent: 1, timeout_per_url: 1 }, internal_queue: { max_size: 1 } });
    await h.daemon.post('/internal/cache/recache/pause', { host_id: 1 });
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/a-normal-1'), page('/a-normal-2')], priority: 'normal' });
    h.clock.advance(1_000);
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/z-high')], priority: 'high' });
    await h.daemon.post('/internal/cache/recache/resume', { host_id: 1 });
    await until(() => h!.origin.totalHits() === 3);
    expect(h.origin.order).toEqual(['/z-high', '/a-normal-1', '/a-normal-2']);
  });

  it('does not pull from a paused host while serving the others, and drains it at once after resume', async () => {
    h = await startWithOrigin(mode, () => ok());
    await h.daemon.post('/internal/cache/recache/pause', { host_id: 1 });
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/paused')], priority: 'high' });
    await h.daemon.post('/internal/cache/recache', { host_id: 2, urls: ['https://shop.example.org/other'], priority: 'normal' });
    await until(() => h!.origin.hits.get('/other') === 1);
    // The claim that pulled /other would have taken /paused first (high before normal); once the internal queue is empty, that attempt would have reached the origin.
    await until(async () => (await h!.daemon.get('/status')).body.data.internal_queue.size === 0);
    expect(h.origin.hits.get('/paused')).toBeUndefined();
    expect((await h.daemon.queues(1)).high.total).toBe(1);
    await h.daemon.post('/internal/cache/recache/resume', { host_id: 1 });
    await until(() => h!.origin.hits.get('/paused') === 1);
  });

  it('retries a failing page after 5 s then 10 s, and records the outcome', async () => {
    h = await startWithOrigin(
      mode,
      withMarkers((p, hit) => (hit < 3 ? { status: 503, body: 'down' } : ok())),
      { recache: { max_concurrent: 1, timeout_per_url: 1 } },
    );
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/flaky')], priority: 'high' });
    await until(async () => (await failedAttempts(h!)) === 1);
    await markerFetched(h, '/marker-1');
    expect(h.origin.hits.get('/flaky')).toBe(1);
    h.clock.advance(5_000);
    await until(async () => (await failedAttempts(h!)) === 2);
    expect(h.origin.hits.get('/flaky')).toBe(2);
    h.clock.advance(9_000);
    await markerFetched(h, '/marker-2');
    expect(h.origin.hits.get('/flaky')).toBe(2);
    h.clock.advance(1_000);
    await until(() => h!.origin.hits.get('/flaky') === 3);
    await until(async () => (await h!.running.runtime.ports.cacheStore!.get(1, page('/flaky'), 1)) !== undefined);
  });

  it('gives up after max_retries attempts and drops the entry', async () => {
    h = await startWithOrigin(mode, () => ({ status: 500, body: 'broken' }));
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/broken')], priority: 'normal' });
    await until(async () => (await failedAttempts(h!)) === 1);
    h.clock.advance(5_000);
    await until(async () => (await failedAttempts(h!)) === 2);
    h.clock.advance(10_000);
    await until(async () => (await failedAttempts(h!)) === 3);
    // Past the claim's lease: a claim that was not released would come back now.
    h.clock.advance(claimLeaseMs({ maxConcurrent: 2, maxRetries: 3, internalQueueMax: 100, timeoutPerUrlMs: 1_000 }) + 1_000);
    const status = await h.daemon.statusAfterTick(h.clock);
    expect(h.origin.hits.get('/broken')).toBe(3);
    expect(status.queues['1'].normal.total).toBe(0);
    expect(status.internal_queue.size).toBe(0);
  });

  it('stops pulling when the whole scheduler is paused, and starts again on resume', async () => {
    h = await startWithOrigin(mode, () => ok(), { scheduler_control_api: true });
    await h.daemon.post('/internal/scheduler/pause');
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/s1')], priority: 'high' });
    const status = await h.daemon.statusAfterTick(h.clock);
    expect(status.internal_queue.size).toBe(0);
    expect(h.origin.totalHits()).toBe(0);
    expect(status.queues['1'].high.total).toBe(1);
    await h.daemon.post('/internal/scheduler/resume');
    await until(() => h!.origin.hits.get('/s1') === 1);
  });

  it('dispatches at most about 2 x max_concurrent entries after a pause in the middle of a drain', async () => {
    h = await startWithOrigin(mode, () => ok(100));
    const urls = Array.from({ length: 40 }, (_, i) => page(`/d${i}`));
    await h.daemon.post('/internal/cache/recache', { host_id: 1, urls, priority: 'normal' });
    await until(() => h!.origin.totalHits() >= 4);
    await h.daemon.post('/internal/cache/recache/pause', { host_id: 1 });
    const atPause = h.origin.totalHits();
    // What was past the gate finishes; then a tick that pulls nothing more.
    await until(async () => (await h!.daemon.get('/status')).body.data.internal_queue.size === 0);
    const status = await h.daemon.statusAfterTick(h.clock);
    expect(status.internal_queue.size).toBe(0);
    expect(h.origin.totalHits() - atPause).toBeLessThanOrEqual(2 * 2 + 2);
    expect(status.queues['1'].normal.total).toBeGreaterThanOrEqual(40 - atPause - 6);
  });
});

describe('outcome events', () => {
  it('records success, retry and give-up on the queue topic', async () => {
    const h = await startWithOrigin('standalone', (p, hit) => (p === '/good' ? ok() : p === '/once' && hit > 1 ? ok() : { status: 503, body: 'no' }), {
      internal_queue: { max_retries: 2 },
    });
    try {
      await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/good'), page('/once'), page('/never')], priority: 'high' });
      await until(async () => (await failedAttempts(h)) === 2);
      h.clock.advance(5_000);
      await until(() => h.origin.totalHits() === 5);
      await until(async () => (await h.daemon.queues()).high.total === 0 && (await h.daemon.get('/status')).body.data.internal_queue.size === 0);
    } finally {
      await stop(h);
    }
    const log = await FileEventLog.open({ dir: path.join(h.running.runtime.config.data_dir, 'event-log') });
    const records: LogRecord[] = [];
    const sub = await log.subscribe({ groupId: 'reader', topics: [TOPICS.queue, TOPICS.renders], handleBatch: async (b) => void records.push(...b.records) });
    await until(async () => (await sub.lag()) === 0);
    await sub.stop();
    await log.close();
    const outcomes = records.map((r) => r.event).filter((e) => [RECACHE_SUCCEEDED, RECACHE_RETRY_SCHEDULED, RECACHE_GAVE_UP].includes(e.type as never));
    const summary = outcomes.map((e) => `${e.type} ${(e.payload as { url: string }).url.slice(-6)} #${(e.payload as { attempt: number }).attempt}`).sort();
    expect(summary).toEqual([
      'RecacheGaveUp /never #2',
      'RecacheRetryScheduled /never #1',
      'RecacheRetryScheduled m/once #1',
      'RecacheSucceeded m/good #1',
      'RecacheSucceeded m/once #2',
    ]);
    // The same attempts in the render history, one fact each.
    const renders = records.map((r) => r.event).filter((e) => e.type === RENDER_RECORDED) as RenderRecorded[];
    const history = renders.map(({ payload: p }) => `${p.outcome} ${p.url.slice(-6)} #${p.attempt} ${p.trigger} ${p.statusCode} ${p.reason}`).sort();
    expect(history).toEqual([
      'gave_up /never #2 recache_high 0 origin answered 503',
      'retry_scheduled /never #1 recache_high 0 origin answered 503',
      'retry_scheduled m/once #1 recache_high 0 origin answered 503',
      'stored m/good #1 recache_high 200 ',
      'stored m/once #2 recache_high 200 ',
    ]);
    expect(renders.every((e) => e.payload.mode === 'bypass' && e.payload.entryId && e.key === '1')).toBe(true);
  });
});

describe('render history of a timeout', () => {
  it('records the last attempt that timed out on a cached page as kept_timeout, the entry left as it was', async () => {
    const h = await startWithOrigin('standalone', (_p, hit) => (hit === 1 ? ok() : ok(3_000)), { internal_queue: { max_retries: 1 } });
    const cache = h.running.runtime.ports.cacheStore!;
    const outcomes = () =>
      h.running.runtime.ports.explorerStore!.query<{ outcome: string; reason: string }>("SELECT outcome, reason FROM render_outcomes FINAL WHERE url = {url:String} ORDER BY outcome", { url: page('/slow') });
    try {
      await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/slow')], priority: 'normal' });
      await until(async () => (await cache.get(1, page('/slow'), 1)) !== undefined);
      const stored = (await cache.get(1, page('/slow'), 1))!.entry;
      await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/slow')], priority: 'normal' });
      await until(async () => (await outcomes()).length === 2, 15_000);
      expect(await outcomes()).toEqual([
        { outcome: 'kept_timeout', reason: expect.stringMatching(/^timed out/) },
        { outcome: 'stored', reason: '' },
      ]);
      expect((await cache.get(1, page('/slow'), 1))!.entry.bodyPath).toBe(stored.bodyPath);
    } finally {
      await stop(h);
    }
  });
});

describe('render mode through the daemon (headless Chromium)', () => {
  it('renders the page with its JavaScript, and a later bypass recache keeps the fresh render (render-wins)', async () => {
    const script = "<script>document.getElementById('out').textContent = 'rendered by ' + 'js';</script>";
    const h = await startWithOrigin(
      'standalone',
      () => ({ status: 200, body: `<html><body><p id="out">raw</p>${script}</body></html>` }),
      { recache: { max_concurrent: 2, timeout_per_url: 20 }, render_service: { tabs: 2, reservation_percent: 50 } },
      'render',
    );
    try {
      const cache = h.running.runtime.ports.cacheStore!;
      await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/app')], priority: 'high' });
      await until(async () => (await cache.get(1, page('/app'), 1)) !== undefined, 25_000);
      const rendered = (await cache.get(1, page('/app'), 1))!;
      expect(rendered.entry).toMatchObject({ kind: 'render', statusCode: 200 });
      expect((await rendered.readBody()).toString()).toContain('rendered by js');

      await h.daemon.post('/internal/cache/recache', { host_id: 1, urls: [page('/app')], priority: 'high', mode: 'bypass' });
      // Both attempts settled (the render's and the bypass's, counted once the cache answered).
      await until(async () => (await settledAttempts(h)) === 2);
      const after = (await cache.get(1, page('/app'), 1))!;
      expect(after.entry.kind).toBe('render');
      expect(after.entry.createdAt).toBe(rendered.entry.createdAt);
    } finally {
      await stop(h);
    }
  }, 60_000);
});
