import { rmSync } from 'node:fs';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { Json, jsonOf, RunningEngine, startKafkaMock, startRedis, testConfig, testEngines } from '@bpc/testing';
import { edgeApp } from '../../apps/edge/src/edge.app';
import { projectorApp } from '../../apps/projector/src/projector.app';
import { publicApiApp } from '../../apps/public-api/src/public-api.app';
import { issueToken } from './explorer-fixtures';

/**
 * Readiness takes an app out of the load balancer only when an adapter it
 * cannot do its main job without is down; a shared outage of any other
 * adapter is reported as degraded with 200 (docs/operations.md, Health and readiness).
 */

async function readiness(base: string): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${base}/health/ready`);
  return { status: response.status, body: await jsonOf(response) };
}

describe('Redis unreachable: readiness per app (cluster mode)', () => {
  let redis: RunningEngine;
  let running: RunningApps;

  beforeAll(async () => {
    redis = await startRedis();
    const config = testConfig('cluster', { redis: { url: redis.url, key_prefix: 'ready-redis' }, scheduler: { enabled: false } });
    running = await startApps([publicApiApp, edgeApp], config, createLogger('silent', 'ready-redis'));
  });

  afterAll(async () => {
    await running?.close();
    await redis?.stop();
    if (running) rmSync(running.runtime.config.data_dir, { recursive: true, force: true });
  });

  it('keeps the public API ready (degraded, listing what is down) and serving Data Explorer reads; the edge, without its cache store, is not ready', async () => {
    const api = running.urls['public-api']!;
    const { token } = await issueToken(api, { user: 'ready-ann', website: 'demo', role: 'readonly' });
    expect((await readiness(api)).body.status).toBe('ok');

    await redis.stop();
    const publicApi = await readiness(api);
    expect({ status: publicApi.status, health: publicApi.body.status }).toEqual({ status: 200, health: 'degraded' });
    for (const name of ['rate_limit_store (redis)', 'queue_store (redis)', 'cache_store (redis)', 'export_slots (redis)']) {
      expect({ name, entry: publicApi.body.degraded[name] }).toEqual({ name, entry: { status: 'down', reason: expect.stringMatching(/redis unreachable at /) } });
      expect(publicApi.body.details[name].status).toBe('down');
    }
    expect(publicApi.body.error).toEqual({});
    expect(publicApi.body.details['explorer_store (chdb)']).toEqual({ status: 'up' });
    expect(publicApi.body.details['event_log (kafka)']).toEqual({ status: 'up' });

    // Reads need neither Redis nor the queue: the rate-limit counters let the request through.
    const query = await fetch(`${api}/api/websites/demo/data-explorer/events/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ period: '7d', perPage: 1 }),
    });
    expect(query.status).toBe(200);

    const edge = await readiness(running.urls.edge!);
    expect({ status: edge.status, health: edge.body.status }).toEqual({ status: 503, health: 'error' });
    expect(edge.body.error['cache_store (redis)']).toEqual({ status: 'down', reason: expect.stringMatching(/redis unreachable at /) });
  }, 60_000);
});

describe('Kafka unreachable: readiness per app (cluster mode)', () => {
  let kafka: RunningEngine;
  let running: RunningApps;

  beforeAll(async () => {
    kafka = await startKafkaMock(1);
    const config = testConfig('cluster', {
      kafka: { brokers: kafka.url.split(','), client_id: 'ready-kafka', namespace: 'ready-kafka' },
      redis: { url: testEngines().redisUrl, key_prefix: `ready-kafka-${Date.now()}` },
      scheduler: { enabled: false },
    });
    running = await startApps([projectorApp, publicApiApp, edgeApp], config, createLogger('silent', 'ready-kafka'));
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await kafka?.stop();
    if (running) rmSync(running.runtime.config.data_dir, { recursive: true, force: true });
  });

  it('keeps the edge and the public API ready (degraded: event log), and takes the projector out', async () => {
    const api = running.urls['public-api']!;
    // The identity index has replayed the log before the outage (a replica starting during one is not ready).
    await issueToken(api, { user: 'ready-bob', website: 'demo', role: 'readonly' });
    for (const base of [running.urls.edge!, api]) expect((await readiness(base)).status).toBe(200);

    await kafka.stop();
    for (const [name, base] of [['edge', running.urls.edge!], ['public-api', api]] as const) {
      const ready = await readiness(base);
      expect({ name, status: ready.status, health: ready.body.status }).toEqual({ name, status: 200, health: 'degraded' });
      expect({ name, entry: ready.body.degraded['event_log (kafka)'] }).toEqual({ name, entry: { status: 'down', reason: expect.any(String) } });
      expect({ name, error: ready.body.error }).toEqual({ name, error: {} });
    }
    expect((await readiness(running.urls.edge!)).body.details['cache_store (redis)']).toEqual({ status: 'up' });

    const projector = await readiness(running.urls.projector!);
    expect(projector.status).toBe(503);
    expect(projector.body.error['event_log (kafka)']).toEqual({ status: 'down', reason: expect.any(String) });
  }, 60_000);
});
