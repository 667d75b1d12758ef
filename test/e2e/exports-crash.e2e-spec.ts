import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileObjectStore } from '@bpc/object-store';
import { freePort, jsonOf, spawnService, TEST_INTERNAL_KEY, until, waitUntilAnswers } from '@bpc/testing';

const admin = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

describe('standalone process killed with SIGKILL during an export', () => {
  jest.setTimeout(240_000);

  it('after the restart the export is failed (INTERRUPTED) or completed, never running, and the slot is free', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-export-crash-'));
    const ports = { public_api: await freePort(), daemon: await freePort(), edge: await freePort(), projector: await freePort() };
    const dataDir = path.join(dir, 'data');
    const file = path.join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        data_dir: dataDir,
        internal_auth_key: TEST_INTERNAL_KEY,
        logging: { level: 'warn' },
        listen: { host: '127.0.0.1', ...ports },
        scheduler: { enabled: false },
        hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }],
        websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }],
      }),
    );
    const api = `http://127.0.0.1:${ports.public_api}`;
    const env = { BPC_CONFIG: file };

    const first = spawnService('apps/standalone/src/main.ts', env);
    await waitUntilAnswers(`${api}/health/ready`, {}, 60_000, first);
    const issued = await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: admin, body: JSON.stringify({ user: 'ann', website: 'demo', role: 'readonly' }) });
    const { token } = await jsonOf(issued);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    expect((await fetch(`${api}/internal/admin/demo-data`, { method: 'POST', headers: admin, body: JSON.stringify({ days: 30, requestsPerDay: 6000 }) })).status).toBe(200);
    // Wait for the projector to hold (most of) the rows, so the export takes a while.
    await until(
      async () => (await jsonOf(await fetch(`${api}/api/websites/demo/data-explorer/events/query`, { method: 'POST', headers, body: JSON.stringify({ period: '90d', perPage: 1 }) }))).meta,
      (meta) => meta?.total >= 150_000,
      { timeoutMs: 120_000, intervalMs: 500, what: 'the projection of the demo data' },
    );

    const started = await jsonOf(await fetch(`${api}/api/websites/demo/data-explorer/events/export`, { method: 'POST', headers, body: JSON.stringify({ period: '90d', waitSeconds: 0 }) }));
    expect(started).toMatchObject({ status: 'running' });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = spawnService('apps/standalone/src/main.ts', env);
    try {
      await waitUntilAnswers(`${api}/health/ready`, {}, 60_000, second);
      const after = await jsonOf(await fetch(`${api}/api/websites/demo/data-explorer/export/${started.exportId}/status`, { headers }));
      if (after.status === 'completed') expect(after.rowCount).toBeGreaterThanOrEqual(150_000);
      else expect(after).toEqual({ status: 'failed', exportId: started.exportId, error: 'INTERRUPTED', errorMessage: expect.any(String), startedFrom: 'api', createdAt: started.createdAt });
      // No staging file left, and no object of the interrupted export (a completed one keeps its file).
      const staged = path.join(dataDir, 'export-staging');
      expect(existsSync(staged) ? readdirSync(staged) : []).toEqual([]);
      const objects: string[] = [];
      for await (const object of new FileObjectStore(dataDir).list('exports/')) objects.push(object.key);
      expect(objects).toEqual(after.status === 'completed' ? [`exports/${started.exportId}.csv`] : []);
      // The slot is free: another export runs to completion.
      const next = await jsonOf(await fetch(`${api}/api/websites/demo/data-explorer/events/export`, { method: 'POST', headers, body: JSON.stringify({ period: '90d', maxRows: 100, waitSeconds: 30 }) }));
      expect(next).toMatchObject({ status: 'completed', rowCount: 100, exportId: started.exportId + 1 });
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
