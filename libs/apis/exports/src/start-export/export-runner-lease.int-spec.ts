import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { systemClock } from '@bpc/domain';
import { AccountLimits, findExplorer } from '@bpc/explorer';
import { ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { MemoryExportSlots } from '@bpc/export-slots';
import { createLogger } from '@bpc/platform';
import { testConfig, until } from '@bpc/testing';
import { exportObjectKey } from '../domain/export-object-key';
import { ExportIndex } from '../state/export-index';
import { EXPORT_LEASE_MS, ExportRunner } from './export-runner';
import { exportRunnerEngines, HeldWrites } from './export-runner.fixture';
import type { StartExportDto } from './start-export.dto';

/** Memory slots that say when a renewal was answered. */
class WatchedSlots extends MemoryExportSlots {
  readonly renewals: boolean[] = [];
  override async renew(accountId: string, exportId: number, leaseMs: number): Promise<boolean> {
    const held = await super.renew(accountId, exportId, leaseMs);
    this.renewals.push(held);
    return held;
  }
}

const caller = { userId: 'ann', websiteId: 'demo', accountId: 'acme', startedFrom: 'api' } as const;

describe('ExportRunner whose slot lease is lost during an export (file log, chDB, file object store)', () => {
  const config = testConfig('standalone');
  const engines = exportRunnerEngines(config);

  it('publishes nothing, records the export failed, and leaves no staging file', async () => {
    const { log, store, objects } = engines;
    const held = new HeldWrites(store);
    const slots = new WatchedSlots();
    const index = new ExportIndex(log, slots, config, systemClock);
    const admission = new ExplorerAdmission({ maxRunning: 3, perAccount: 16 });
    const runner = new ExportRunner(index, slots, new AccountLimits(config), held as unknown as ExplorerStore, objects, admission, config, systemClock, createLogger('silent', 'exports'));
    runner.onApplicationBootstrap();
    await runner.ready();
    try {
      const started = await runner.start(caller, findExplorer('events')!, { period: '30d', waitSeconds: 0 } as StartExportDto);
      await until(() => held.writing, { intervalMs: 10, what: 'the export writing its file' });

      // Another replica took the slot over (this one stalled past its lease): the next renewal says so.
      await slots.release(caller.accountId, started.exportId);
      expect(await slots.claim(caller.accountId, 'another-replica', 'another-question', 60_000)).toMatchObject({ claimed: true });
      await until(() => slots.renewals.includes(false), { timeoutMs: EXPORT_LEASE_MS, intervalMs: 50, what: 'a renewal refused' });
      held.letGo();

      const failed = await until(() => index.get(started.exportId), (record) => record?.status !== 'running', { timeoutMs: 10_000, intervalMs: 20, what: 'the export outcome' });
      expect(failed).toMatchObject({ status: 'failed', error: 'GENERATION_FAILED', errorMessage: expect.stringMatching(/lost its slot lease/) });
      expect(await objects.stat(exportObjectKey(started.exportId))).toBeUndefined();
      const exportsDir = path.join(config.data_dir, 'exports');
      expect(existsSync(exportsDir) ? readdirSync(exportsDir) : []).toEqual([]);
      expect(existsSync(runner.stagingPath(started.exportId))).toBe(false);
    } finally {
      held.letGo();
      await runner.onApplicationShutdown();
    }
  }, 40_000);
});
