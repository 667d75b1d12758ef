import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, RuntimeMode, TEST_INTERNAL_KEY, testConfig, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const auth = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

describe.each<RuntimeMode>(['standalone', 'cluster'])('walking skeleton (%s mode)', (mode) => {
  let running: RunningApps;
  let daemon: string;

  beforeAll(async () => {
    const config = testConfig(mode, { scheduler: { enabled: false } });
    running = await startApps(standaloneApps, config, createLogger('warn', `e2e-${mode}`));
    daemon = running.urls.daemon!;
  });

  afterAll(async () => {
    await running?.close();
  });

  it('POST /internal/cache/recache → RecacheRequested → queue projection → GET /status shows the entries', async () => {
    const response = await fetch(`${daemon}/internal/cache/recache`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ host_id: 1, urls: ['https://www.example.com/a', 'https://www.example.com/b'], priority: 'high' }),
    });
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({
      success: true,
      data: { host_id: 1, urls_count: 2, dimension_ids_count: 2, entries_enqueued: 4, priority: 'high', paused: false, receipt_id: expect.any(String) },
    });

    const status = await jsonOf(await fetch(`${daemon}/status`, { headers: auth }));
    expect(status.success).toBe(true);
    expect(status.data.queues['1']).toEqual({
      high: { total: 4, due_now: 4 },
      normal: { total: 0, due_now: 0 },
      autorecache: { total: 0, due_now: 0 },
      paused: false,
      drain_estimate: {
        high: expect.objectContaining({ completed_per_minute: expect.any(Number) }),
        normal: { seconds: 0, completed_per_minute: expect.any(Number) },
        autorecache: { seconds: 0, completed_per_minute: expect.any(Number) },
      },
    });
    expect(status.data.queues['2'].high.total).toBe(0);
  });

  it('answers 401 without the internal key and 400 naming the field on bad input', async () => {
    const noKey = await fetch(`${daemon}/internal/cache/recache`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(noKey.status).toBe(401);
    expect(await jsonOf(noKey)).toEqual({ status: 'error', message: 'missing or invalid X-Internal-Auth' });

    const badJson = await fetch(`${daemon}/internal/cache/recache`, { method: 'POST', headers: auth, body: '{"host_id":' });
    expect(badJson.status).toBe(400);
    expect((await jsonOf(badJson)).message).toMatch(/^invalid JSON/);

    const badPriority = await fetch(`${daemon}/internal/cache/recache`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ host_id: 1, urls: ['https://www.example.com/a'], priority: 'urgent' }),
    });
    expect(badPriority.status).toBe(400);
    expect(await jsonOf(badPriority)).toEqual({ status: 'error', message: 'priority must be "high" or "normal"' });
  });

  it('serves liveness and readiness on every app, naming the adapters checked', async () => {
    for (const [name, url] of Object.entries(running.urls)) {
      const live = await fetch(`${url}/health/live`);
      expect({ name, status: live.status }).toEqual({ name, status: 200 });
      // Ready once what it reads has caught up (the public API's identity index replays the log after startup).
      const ready = await until(
        async () => {
          const response = await fetch(`${url}/health/ready`);
          return { status: response.status, health: (await jsonOf(response)).status };
        },
        (r) => r.status === 200,
        { what: `${name} ready` },
      );
      expect({ name, ...ready }).toEqual({ name, status: 200, health: 'ok' });
    }
    const projectorReady = await jsonOf(await fetch(`${running.urls.projector}/health/ready`));
    for (const projection of ['projection (queue)', 'projection (cache)', 'projection (explorer)', 'projection (recache receipts)']) {
      expect(projectorReady.details[projection]).toEqual({ status: 'up', lag: expect.any(Number) });
    }
    const daemonReady = await jsonOf(await fetch(`${daemon}/health/ready`));
    const expected = mode === 'cluster' ? ['cache_store (redis)', 'event_log (kafka)', 'object_store (files)', 'queue_store (redis)'] : ['cache_store (file)', 'event_log (file)', 'object_store (files)', 'queue_store (memory)'];
    expect(Object.keys(daemonReady.details).sort()).toEqual(expected);
  });
});
