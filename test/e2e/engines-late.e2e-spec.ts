import { RunningApps, startApps } from '@bpc/composition';
import { capturedLogger, freePort, messagesWith, jsonOf, refusedUntilOpened, RunningEngine, startKafkaMock, startRedis, SwitchableAddress, testConfig, until } from '@bpc/testing';
import { projectorApp } from '../../apps/projector/src/projector.app';
import { publicApiApp } from '../../apps/public-api/src/public-api.app';
import { adminHeaders } from './explorer-fixtures';

async function readiness(url: string): Promise<{ status: number; details: Record<string, { status: string; reason?: string }> }> {
  const response = await fetch(`${url}/health/ready`);
  return { status: response.status, details: (await jsonOf(response)).details ?? {} };
}

describe('the projector started before Kafka and Redis (cluster mode, as compose starts every container at once)', () => {
  let kafka: RunningEngine;
  let broker: SwitchableAddress;
  let redis: RunningEngine | undefined;
  let redisPort: number;
  let running: RunningApps;
  const { logger, lines } = capturedLogger();

  beforeAll(async () => {
    kafka = await startKafkaMock(1);
    broker = await refusedUntilOpened(kafka.url.split(',')[0]);
    redisPort = await freePort();
    const config = testConfig('cluster', {
      kafka: { brokers: [broker.address], client_id: 'late-engines', namespace: 'late-engines' },
      redis: { url: `redis://127.0.0.1:${redisPort}`, key_prefix: 'late-engines' },
    });
    // Before the fix the queue projection's subscription rejected here, and the process exited 1.
    running = await startApps([projectorApp], config, logger);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await broker?.close();
    await kafka?.stop();
    await redis?.stop();
  });

  it('starts anyway, readiness 503 naming what it waits for, one log line per projection for the whole wait', async () => {
    const projector = running.urls.projector!;
    const waiting = await readiness(projector);
    expect(waiting.status).toBe(503);
    expect(waiting.details['projection (queue)']).toEqual({ status: 'down', reason: expect.stringMatching(/^waiting to subscribe: kafka unreachable/) });
    expect(waiting.details['projection (cache)']).toEqual({ status: 'down', reason: expect.stringMatching(/^waiting to subscribe: kafka unreachable/) });
    expect(waiting.details['queue_store (redis)']).toEqual({ status: 'down', reason: expect.stringMatching(/redis unreachable/) });
    // A subscription's first attempt has failed by now, after kafkajs' own connection retries: no line came once per attempt.
    const said = lines.map((line) => String(line.msg));
    expect(said.filter((msg, i) => said.indexOf(msg) !== i)).toEqual([]);

    await broker.open();
    redis = await startRedis({ port: redisPort });
    await until(() => readiness(projector), (r) => r.status === 200, { timeoutMs: 60_000, intervalMs: 200 });

    expect(messagesWith(lines, 'waiting for them').sort().reverse()).toEqual([
      expect.stringMatching(/^queue-projector \(bpc\.queue\.v1\): the event log or the store cannot be reached yet; waiting for them/),
      expect.stringMatching(/^cache-projector \(bpc\.queue\.v1\): the event log or the store cannot be reached yet; waiting for them/),
    ]);
  }, 120_000);
});

describe('the public API started before its ClickHouse server (cluster mode)', () => {
  let running: RunningApps;
  let clickhouseUrl: string;
  const { logger, lines } = capturedLogger();

  beforeAll(async () => {
    // No ClickHouse server runs on the test machines: an address that refuses connections stands for one still booting.
    clickhouseUrl = `http://127.0.0.1:${await freePort()}`;
    const config = testConfig('cluster', { adapters: { event_log: 'kafka', queue_store: 'redis', explorer_store: 'clickhouse' }, clickhouse: { url: clickhouseUrl, username: 'analyst-app', password: 'secret' } });
    // Before the fix the DDL was applied here, and ECONNREFUSED stopped the process (exit 1, a crash loop under compose).
    running = await startApps([publicApiApp], config, logger);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
  });

  it('starts anyway: readiness 503 says it waits for ClickHouse at its address and why, logged once', async () => {
    const api = running.urls['public-api']!;
    const waiting = await until(() => readiness(api), (r) => /ECONNREFUSED/.test(r.details['explorer_store (clickhouse)']?.reason ?? ''), { timeoutMs: 30_000 });
    expect(waiting.status).toBe(503);
    expect(waiting.details['explorer_store (clickhouse)'].reason).toMatch(new RegExp(`^waiting for ClickHouse at ${clickhouseUrl} \\(user analyst-app\\) to apply the explorer DDL: .*ECONNREFUSED`));
    expect(messagesWith(lines, 'waiting for ClickHouse')).toEqual([expect.stringMatching(/retrying with backoff; not ready until then/)]);
  }, 60_000);

  it('points the operator SQL console to the server’s read-only analyst user (the console runs on chDB only)', async () => {
    const answer = await fetch(`${running.urls['public-api']}/internal/admin/sql`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ sql: 'SELECT 1' }) });
    expect({ status: answer.status, body: await jsonOf(answer) }).toEqual({ status: 403, body: { code: 'FEATURE_DISABLED', message: expect.stringMatching(/read-only analyst user \(docs\/analysts\.md\)/) } });
  });
});
