import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { envelope, EXPORT_STARTED, TOPICS } from '@bpc/events';
import { ExportRunner } from '../../libs/apis/exports/src/start-export/export-runner';
import { RedisExportSlots } from '@bpc/export-slots';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { freePort, insertBulkBotRequests, jsonOf, testConfig, until } from '@bpc/testing';
import { publicApiApp } from '../../apps/public-api/src/public-api.app';
import { EXPORT_LEASE_MS, RECONCILE_EVERY_MS } from '../../libs/apis/exports/src/start-export/export-runner';
import { issueToken } from './explorer-fixtures';

const BULK_ROWS = 600_000;

/**
 * Cluster mode: two public-api replicas (one Kafka namespace, one Redis key
 * prefix, one shared data directory for the file object store) share the account
 * slot, the export ids and the records.
 */
describe('Data Explorer CSV exports, two public-api replicas (cluster mode)', () => {
  jest.setTimeout(120_000);
  let configA: AppConfig;
  let a: RunningApps;
  let b: RunningApps;
  let c: RunningApps | undefined;
  let ann: string;

  const replica = async (config: AppConfig, name: string) => startApps([publicApiApp], config, createLogger('silent', name));
  const urlOf = (running: RunningApps) => running.urls['public-api']!;
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const exportCall = (running: RunningApps, website: string, body: Record<string, unknown>) =>
    fetch(`${urlOf(running)}/api/websites/${website}/data-explorer/events/export`, { method: 'POST', headers: headers(ann), body: JSON.stringify(body) });
  const status = async (running: RunningApps, website: string, id: number) =>
    jsonOf(await fetch(`${urlOf(running)}/api/websites/${website}/data-explorer/export/${id}/status`, { headers: headers(ann) }));
  /** Polling of the shared `until` here: every 100 ms, for up to 30 s. */
  const poll = { timeoutMs: 30_000, intervalMs: 100 };
  const withPort = async (config: AppConfig): Promise<AppConfig> => ({ ...config, listen: { ...config.listen, public_api: await freePort() } });

  beforeAll(async () => {
    // One data_dir for both: export files live in the file object store's data_dir/exports, a volume both replicas share.
    configA = await withPort(
      testConfig('cluster', {
        scheduler: { enabled: false },
        rate_limit: { enabled: false },
        websites: [
          { id: 'demo', host_id: 1, account_id: 'acme' },
          { id: 'other', host_id: 1, account_id: 'beta' },
        ],
      }),
    );
    a = await replica(configA, 'exports-cluster-a');
    b = await replica(await withPort(configA), 'exports-cluster-b');
    ann = (await issueToken(urlOf(a), { user: 'ann', website: 'demo', role: 'readonly' })).token;
    await issueToken(urlOf(a), { user: 'ann', website: 'other', role: 'readonly' });
    // B learns the tokens from the identity topic.
    await until(() => fetch(`${urlOf(b)}/api/websites/other/data-explorer`, { headers: headers(ann) }).then((r) => r.status), (s) => s === 200, poll);
    await insertBulkBotRequests(a.runtime.ports.explorerStore!, 'demo', BULK_ROWS, Date.now() - 60_000);
  });

  afterAll(async () => {
    await c?.close();
    await b?.close();
    await a?.close();
    rmSync(configA.data_dir, { recursive: true, force: true });
  });

  it('of two replicas racing for one account slot exactly one runs, the other answers 409 naming it; the same body rejoins across replicas; the status reads on both', async () => {
    for (const replicaApps of [a, b]) expect((await jsonOf(await fetch(`${urlOf(replicaApps)}/health/ready`))).details['export_slots (redis)']).toMatchObject({ status: 'up' });
    const body = (filename: string) => ({ period: '30d', filename, waitSeconds: 0 });
    const [fromA, fromB] = await Promise.all([exportCall(a, 'demo', body('race-a')), exportCall(b, 'demo', body('race-b'))]);
    const answers = [
      { status: fromA.status, body: await jsonOf(fromA) },
      { status: fromB.status, body: await jsonOf(fromB) },
    ];
    const won = answers.filter((x) => x.status === 200);
    const lost = answers.filter((x) => x.status === 409);
    expect([won.length, lost.length]).toEqual([1, 1]);
    const exportId = won[0].body.exportId as number;
    expect(won[0].body).toEqual({ status: 'running', exportId, message: expect.any(String), startedFrom: 'api', createdAt: expect.any(String) });
    expect(lost[0].body).toEqual({ code: 'EXPORT_SLOT_BUSY', message: expect.stringContaining(`export ${exportId}`), exportId });

    // The winner's body, sent to the other replica as well, rejoins the same export.
    const winnerName = answers[0].status === 200 ? 'race-a' : 'race-b';
    const [again] = await Promise.all([exportCall(a, 'demo', body(winnerName)), exportCall(b, 'demo', body(winnerName))].map(async (p) => jsonOf(await p)));
    expect(again.exportId).toBe(exportId);
    const onB = await jsonOf(await exportCall(b, 'demo', body(winnerName)));
    expect(onB.exportId).toBe(exportId);

    const doneA = await until(() => status(a, 'demo', exportId), (r) => r.status !== 'running', poll);
    const doneB = await until(() => status(b, 'demo', exportId), (r) => r.status !== 'running', poll);
    expect(doneA).toMatchObject({ status: 'completed', exportId, rowCount: expect.any(Number), filename: `${winnerName}.csv` });
    expect({ ...doneB, downloadUrl: '', expiresAt: '' }).toEqual({ ...doneA, downloadUrl: '', expiresAt: '' });
    // Either replica serves the file (shared directory), by the link the other minted.
    const file = await fetch((doneA.downloadUrl as string).replace(/^https?:\/\/[^/]+/, urlOf(b)));
    expect(file.status).toBe(200);
    expect((await file.text()).split('\r\n')[0]).toBe('"page","event_date_time","bot_name","serve_time"');

    // The slot is free again, on both; ids keep increasing across replicas.
    const next = await jsonOf(await exportCall(b, 'demo', { period: '30d', maxRows: 10, filename: 'next', waitSeconds: 30 }));
    expect(next).toMatchObject({ status: 'completed', rowCount: 10, exportId: exportId + 1 });
  });

  it("leaves a live replica's running export alone (lease renewed), and fails a crashed replica's one once its lease ends, freeing the slot", async () => {
    const slots = new RedisExportSlots({ url: configA.redis!.url, keyPrefix: configA.redis!.key_prefix });
    const started = async (exportId: number, filename: string) =>
      a.runtime.ports.eventLog!.append(TOPICS.exports, [
        envelope(
          EXPORT_STARTED,
          1,
          {
            exportId, fileId: `f-${exportId}`, accountId: 'beta', websiteId: 'other', userId: 'ann', explorerKey: 'events', questionHash: `h-${exportId}`,
            columns: ['page'], maxRows: 10, filename, window: { start: new Date(0).toISOString(), end: new Date(86_400_000).toISOString() },
          },
          { id: `start-${exportId}`, occurredAt: new Date(), key: 'beta' },
        ),
      ]);
    try {
      // A third replica, alive and renewing its lease, runs an export of account beta.
      const live = await slots.claim('beta', 'live-replica', 'h', 60_000);
      if (!live.claimed) throw new Error('slot taken');
      await started(live.exportId, 'live.csv');
      await until(() => status(b, 'other', live.exportId), (r) => r.status === 'running', poll);
      // A lease check on every replica, after the recovery of one starting now, leaves it running.
      c = await replica(await withPort(configA), 'exports-cluster-c');
      for (const replicaApps of [a, b, c]) {
        const runner = replicaApps.apps['public-api']!.get(ExportRunner);
        await runner.ready();
        await runner.reconcile();
      }
      for (const replicaApps of [a, b, c]) expect(await status(replicaApps, 'other', live.exportId)).toMatchObject({ status: 'running', exportId: live.exportId });
      const busy = await exportCall(c, 'other', { period: '30d', filename: 'blocked', waitSeconds: 0 });
      expect([busy.status, (await jsonOf(busy)).exportId]).toEqual([409, live.exportId]);

      // That replica crashes: no more renewals (a short lease stands for the 15 s one), the lease ends.
      expect(await slots.renew('beta', live.exportId, 300)).toBe(true);
      const failed = await until(() => status(a, 'other', live.exportId), (r) => r.status !== 'running', { ...poll, timeoutMs: EXPORT_LEASE_MS + 2 * RECONCILE_EVERY_MS });
      expect(failed).toEqual({ status: 'failed', exportId: live.exportId, error: 'INTERRUPTED', errorMessage: expect.any(String), startedFrom: 'api', createdAt: expect.any(String) });
      expect(await until(() => status(c!, 'other', live.exportId), (r) => r.status === 'failed', poll)).toEqual(failed);
      // One failure in the log, whichever replica noticed first (the later ones are ignored by the fold).
      expect(await slots.holder('beta')).toBeUndefined();
      const after = await jsonOf(await exportCall(b, 'other', { period: '30d', filename: 'after-crash', waitSeconds: 30 }));
      expect(after).toMatchObject({ status: 'completed', exportId: expect.any(Number) });
      expect(after.exportId).toBeGreaterThan(live.exportId);
      expect(readdirSync(path.join(configA.data_dir, 'export-staging'))).toEqual([]);
      // Only completed exports' files in the shared store (no upload left half-written, no failed export's file).
      expect(readdirSync(path.join(configA.data_dir, 'exports')).filter((f) => !/^\d+\.csv$/.test(f))).toEqual([]);
    } finally {
      await slots.close();
    }
  });
});
