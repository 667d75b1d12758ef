import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sha256Hex } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, rawRequest, RunningEngine, startKafkaMock, startRedis, TEST_INTERNAL_KEY, testConfig, testEngines, until } from '@bpc/testing';
import { daemonApp } from '../../apps/daemon/src/daemon.app';
import { edgeApp } from '../../apps/edge/src/edge.app';
import { projectorApp } from '../../apps/projector/src/projector.app';

const headers = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

/** The shared `until`, polling every 100 ms. */
const eventually = <T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 20_000): Promise<T> => until(probe, accept, { timeoutMs, intervalMs: 100 });

function recache(daemon: string, url: string) {
  return fetch(`${daemon}/internal/cache/recache`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ host_id: 1, urls: [url], priority: 'normal' }),
  });
}

describe('Redis unreachable (cluster mode)', () => {
  let redis: RunningEngine;
  let running: RunningApps;
  let daemon: string;
  const durableDir = mkdtempSync(path.join(tmpdir(), 'bpc-durable-redis-'));

  beforeAll(async () => {
    redis = await startRedis({ durableDir });
    const config = testConfig('cluster', { redis: { url: redis.url, key_prefix: 'outage' }, scheduler: { enabled: false } });
    running = await startApps([projectorApp, daemonApp], config, createLogger('silent', 'outage'));
    daemon = running.urls.daemon!;
  });

  afterAll(async () => {
    await running?.close();
    await redis?.stop();
  });

  it('reports which adapter is down and why, answers 500 without recording, reconnects, and loses nothing acknowledged', async () => {
    expect((await recache(daemon, 'https://www.example.com/before')).status).toBe(200);

    await redis.stop();
    const ready = await fetch(`${daemon}/health/ready`);
    expect(ready.status).toBe(503);
    const health = await jsonOf(ready);
    expect(health.details['queue_store (redis)'].status).toBe('down');
    expect(health.details['queue_store (redis)'].reason).toMatch(new RegExp(`redis unreachable at redis://127\\.0\\.0\\.1:${redis.port}`));
    expect(health.details['event_log (kafka)'].status).toBe('up');

    const during = await recache(daemon, 'https://www.example.com/during');
    expect(during.status).toBe(500);
    expect(await jsonOf(during)).toEqual({ status: 'error', message: expect.stringMatching(/^queue store unavailable, nothing was changed/) });
    const statusDuring = await fetch(`${daemon}/status`, { headers });
    expect({ status: statusDuring.status, body: await jsonOf(statusDuring) }).toEqual({ status: 500, body: { status: 'error', message: expect.stringMatching(/^queue store unavailable: redis unreachable at /) } });

    redis = await startRedis({ port: redis.port, durableDir });
    const readyAgain = await eventually(() => fetch(`${daemon}/health/ready`).then((r) => r.status), (s) => s === 200);
    expect(readyAgain).toBe(200);
    // What was acknowledged before the outage is still there; the refused request left no trace.
    const status = await jsonOf(await fetch(`${daemon}/status`, { headers }));
    expect(status.data.queues['1'].normal).toEqual({ total: 2, due_now: 2 });
    expect((await recache(daemon, 'https://www.example.com/after')).status).toBe(200);
    expect((await jsonOf(await fetch(`${daemon}/status`, { headers }))).data.queues['1'].normal.total).toBe(4);
  }, 60_000);

  it('answers 500 with no partial count to purge, pause and resume while Redis is down, and the state stays consistent with the log', async () => {
    await eventually(() => fetch(`${daemon}/health/ready`).then((r) => r.status), (s) => s === 200);
    const before = (await jsonOf(await fetch(`${daemon}/status`, { headers }))).data.queues['1'];
    await redis.stop();
    for (const [path, body] of [
      ['/internal/cache/queue/purge', { host_id: 1 }],
      ['/internal/cache/recache/pause', { host_id: 1 }],
      ['/internal/cache/recache/resume', { host_id: 1 }],
    ] as const) {
      const response = await fetch(`${daemon}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect({ path, status: response.status }).toEqual({ path, status: 500 });
      expect(await jsonOf(response)).toEqual({ status: 'error', message: expect.stringMatching(/^queue store unavailable, nothing was changed/) });
    }
    redis = await startRedis({ port: redis.port, durableDir });
    const after = await eventually(
      () => fetch(`${daemon}/status`, { headers }).then((r) => (r.status === 200 ? jsonOf(r) : undefined)),
      (s) => s !== undefined,
    );
    expect(after.data.queues['1'].paused).toBe(false);
    // Answered once the projection applied it, after anything the refused commands could have left in the log before it (one host, one partition).
    const marker = await recache(daemon, 'https://www.example.com/after-the-refusals');
    expect(marker.status).toBe(200);
    const added = (await jsonOf(marker)).data.entries_enqueued;
    // The drain estimate moves with the queue: the counts are what must add up.
    const { drain_estimate: _estimate, ...queues } = (await jsonOf(await fetch(`${daemon}/status`, { headers }))).data.queues['1'];
    const { drain_estimate: _before, ...countsBefore } = before;
    expect(queues).toEqual({ ...countsBefore, normal: { total: before.normal.total + added, due_now: before.normal.due_now + added } });
  }, 60_000);
});

describe('Redis unreachable: the edge (cluster mode)', () => {
  const token = 'outage-prerender-token';
  let redis: RunningEngine;
  let running: RunningApps;

  beforeAll(async () => {
    redis = await startRedis();
    const config = testConfig('cluster', {
      redis: { url: redis.url, key_prefix: 'edge-outage' },
      scheduler: { enabled: false },
      edge: { record_flush_ms: 50 },
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(token) }],
    });
    running = await startApps([projectorApp, edgeApp], config, createLogger('silent', 'edge-outage'));
  });

  afterAll(async () => {
    await running?.close();
    await redis?.stop();
  });

  it('answers 503 UNAVAILABLE with Retry-After and a request id, and records the request', async () => {
    await redis.stop();
    const answer = await rawRequest(running.urls.edge!, '/https://www.example.com/during-outage', { headers: { 'x-prerender-token': token, 'user-agent': 'Googlebot/2.1' } });
    expect([answer.status, JSON.parse(answer.body.toString()).code, answer.headers['retry-after']]).toEqual([503, 'UNAVAILABLE', '10']);
    const requestId = answer.headers['x-request-id'];
    expect(requestId).toEqual(expect.any(String));
    const store = running.runtime.ports.explorerStore!;
    await until(async () => (await store.query('SELECT 1 FROM bot_requests WHERE request_id = {id:String} AND status_code = 503', { id: requestId })).length === 1, { timeoutMs: 20_000 });
  }, 60_000);
});

describe('Kafka unreachable (cluster mode)', () => {
  let kafka: RunningEngine;
  let running: RunningApps;

  beforeAll(async () => {
    kafka = await startKafkaMock(1);
    const config = testConfig('cluster', { kafka: { brokers: kafka.url.split(','), client_id: 'outage', namespace: 'outage' }, redis: { url: testEngines().redisUrl, key_prefix: 'kafka-outage' } });
    running = await startApps([projectorApp, daemonApp], config, createLogger('silent', 'kafka-outage'));
  });

  afterAll(async () => {
    await running?.close();
    await kafka?.stop();
  });

  it('readiness names the event log and the reason; recache answers 500 without recording', async () => {
    const daemon = running.urls.daemon!;
    expect((await fetch(`${daemon}/health/ready`)).status).toBe(200);
    await kafka.stop();
    const ready = await fetch(`${daemon}/health/ready`);
    expect(ready.status).toBe(503);
    const health = await jsonOf(ready);
    expect(health.details['event_log (kafka)'].status).toBe('down');
    expect(health.details['event_log (kafka)'].reason).toMatch(/kafka/i);
    expect(health.details['queue_store (redis)'].status).toBe('up');

    const response = await recache(daemon, 'https://www.example.com/x');
    expect(response.status).toBe(500);
    expect((await jsonOf(response)).message).toMatch(/^event log unavailable/);
  }, 90_000);
});
