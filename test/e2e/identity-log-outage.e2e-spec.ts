import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, refusedUntilOpened, RunningEngine, startKafkaMock, SwitchableAddress, testConfig, until } from '@bpc/testing';
import { publicApiApp } from '../../apps/public-api/src/public-api.app';
import { adminHeaders } from './explorer-fixtures';

describe('public API started while Kafka is unreachable (cluster mode)', () => {
  let kafka: RunningEngine;
  let broker: SwitchableAddress;
  let running: RunningApps;
  let api: string;

  beforeAll(async () => {
    kafka = await startKafkaMock(1);
    broker = await refusedUntilOpened(kafka.url.split(',')[0]);
    const config = testConfig('cluster', { kafka: { brokers: [broker.address], client_id: 'identity-outage', namespace: 'identity-outage' } });
    running = await startApps([publicApiApp], config, createLogger('silent', 'identity-outage'));
    api = running.urls['public-api']!;
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await broker?.close();
    await kafka?.stop();
  });

  const discovery = (token: string) => fetch(`${api}/api/websites/demo/data-explorer`, { headers: { authorization: `Bearer ${token}` } });
  const readiness = async () => {
    const response = await fetch(`${api}/health/ready`);
    return { status: response.status, identity: (await jsonOf(response)).details?.['identity index'] };
  };

  it('answers bearer requests 503 LOG_UNAVAILABLE and reports the identity index down while Kafka is unreachable', async () => {
    const during = await discovery('bpc_not-checked-yet');
    expect(during.status).toBe(503);
    expect(await jsonOf(during)).toEqual({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/^identity index unavailable: /) });
    expect(await readiness()).toEqual({ status: 503, identity: { status: 'down', reason: expect.stringMatching(/^identity index unavailable: /) } });
  }, 60_000);

  it('recovers by itself once Kafka is reachable: ready only with the index caught up, a token issued then works', async () => {
    await broker.open();
    await until(readiness, (r) => r.status === 200, { timeoutMs: 60_000, intervalMs: 200 });

    const issued = await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ user: 'olga', website: 'demo', role: 'readonly' }) });
    expect(issued.status).toBe(201);
    const { token } = await jsonOf(issued);
    expect((await discovery(token)).status).toBe(200);
    expect(await readiness()).toEqual({ status: 200, identity: { status: 'up' } });

    // Exports replay their own records from the log: a replay that failed while it was down is made afresh.
    const exported = await fetch(`${api}/api/websites/demo/data-explorer/events/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ period: '7d', waitSeconds: 20 }),
    });
    expect({ status: exported.status, export: (await jsonOf(exported)).status }).toEqual({ status: 200, export: 'completed' });
  }, 90_000);
});
