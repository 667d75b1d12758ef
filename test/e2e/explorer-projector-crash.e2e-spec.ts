import path from 'node:path';
import { FileEventLog } from '@bpc/event-log';
import { TOPICS } from '@bpc/events';
import { jsonOf, metricValue, removeTestDataDir, spawnService, standaloneDir, TEST_INTERNAL_KEY, until, waitUntilAnswers, writeStandaloneConfig } from '@bpc/testing';

const admin = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

describe('standalone process killed with SIGKILL while the explorer projector is inserting', () => {
  const dir = standaloneDir('bpc-explorer-crash');
  afterAll(() => removeTestDataDir(dir));

  it('counts every bot request exactly once after the restart', async () => {
    const { file, listen: ports } = await writeStandaloneConfig(dir, {
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }, { id: 2, name: 'mobile', match: { user_agent: 'Mobile' } }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }],
    });
    const api = `http://127.0.0.1:${ports.public_api}`;
    const env = { BPC_CONFIG: file };

    const first = spawnService('apps/standalone/src/main.ts', env);
    await waitUntilAnswers(`${api}/health/ready`, {}, 60_000, first);
    const issued = await jsonOf(await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: admin, body: JSON.stringify({ user: 'ops', website: 'demo', role: 'readonly' }) }));
    const bearer = { authorization: `Bearer ${issued.token}`, 'content-type': 'application/json' };
    const total = async () => (await jsonOf(await fetch(`${api}/api/websites/demo/data-explorer/events/query`, { method: 'POST', headers: bearer, body: JSON.stringify({ period: '90d', perPage: 1 }) }))).meta.total as number;

    // Demo data is appended in chunks while the projector inserts batches: kill in the middle of both. About
    // 300,000 requests: more than one insert takes (EXPLORER_FLUSH.maxRows), so the kill comes before the last
    // insert however fast the append is (with 90,000, a fast append left them all to the first insert).
    void fetch(`${api}/internal/admin/demo-data`, { method: 'POST', headers: admin, body: JSON.stringify({ days: 60, requestsPerDay: 5000 }) }).catch(() => undefined);
    const seen = await until(total, (n) => n >= 5_000, { timeoutMs: 60_000, intervalMs: 5, what: 'the first inserts of the demo data' });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = spawnService('apps/standalone/src/main.ts', env);
    await waitUntilAnswers(`${api}/health/ready`, {}, 60_000, second);
    // Caught up once nothing is left unread in the log, buffered or being inserted.
    const lag = async (): Promise<number> => {
      const metrics = await (await fetch(`http://127.0.0.1:${ports.projector}/metrics`)).text();
      if (!metrics.includes('bpc_explorer_projection_lag_events ')) throw new Error('the projector serves no bpc_explorer_projection_lag_events');
      return metricValue(metrics, 'bpc_explorer_projection_lag_events');
    };
    await until(async () => (await lag()) === 0, { timeoutMs: 60_000, intervalMs: 100, what: 'the explorer projection to catch up after the restart' });
    const settled = await total();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // The log is the truth: every BotRequestRecorded it holds is counted once, none twice.
    const log = await FileEventLog.open({ dir: path.join(dir, 'data', 'event-log') });
    const ids = new Set<string>();
    const subscription = await log.subscribe({ groupId: 'crash-check', topics: [TOPICS.botRequests], handleBatch: async (b) => b.records.forEach((r) => ids.add(r.event.id)) });
    await until(async () => (await subscription.lag()) === 0, { intervalMs: 20 });
    await subscription.stop();
    await log.close();
    expect(seen).toBeLessThan(ids.size);
    expect(settled).toBe(ids.size);
  }, 150_000);
});
