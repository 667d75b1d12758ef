import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { systemClock } from '@bpc/domain';
import { FileEventLog } from '@bpc/event-log';
import { AccountLimits, findExplorer } from '@bpc/explorer';
import { ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { MemoryExportSlots } from '@bpc/export-slots';
import { createLogger } from '@bpc/platform';
import { EXPORT_FAILED, EXPORT_STARTED, TOPICS } from '@bpc/events';
import { testConfig, until } from '@bpc/testing';
import { exportObjectKey } from '../domain/export-object-key';
import { ExportIndex } from '../state/export-index';
import { ExportRunner } from './export-runner';
import { exportRunnerEngines, HeldWrites } from './export-runner.fixture';
import type { StartExportDto } from './start-export.dto';

const SHUTDOWN_WAIT_MS = 300;
const caller = { userId: 'ann', websiteId: 'demo', accountId: 'acme', startedFrom: 'api' } as const;

describe('ExportRunner shutdown with an export still running (file log, chDB)', () => {
  const config = testConfig('standalone');
  const engines = exportRunnerEngines(config);

  it('stops waiting at its bound, fails the export (INTERRUPTED) and frees the slot; the file is never published', async () => {
    const { log, store, objects } = engines;
    const held = new HeldWrites(store);
    const slots = new MemoryExportSlots();
    const index = new ExportIndex(log, slots, config, systemClock);
    const logger = createLogger('silent', 'exports');
    const admission = new ExplorerAdmission({ maxRunning: 3, perAccount: 16 });
    const runner = new ExportRunner(index, slots, new AccountLimits(config), held as unknown as ExplorerStore, objects, admission, config, systemClock, logger, SHUTDOWN_WAIT_MS);
    runner.onApplicationBootstrap();
    await runner.ready();

    const started = await runner.start(caller, findExplorer('events')!, { period: '30d', waitSeconds: 0 } as StartExportDto);
    expect(started.status).toBe('running');
    await until(() => Boolean(held.writing), { intervalMs: 10, what: 'the export writing its file' });

    try {
      const shutdownAt = Date.now();
      const ended = await Promise.race([runner.onApplicationShutdown().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('still waiting'), 5_000))]);
      expect(ended).toBe('stopped');
      expect(Date.now() - shutdownAt).toBeLessThan(SHUTDOWN_WAIT_MS + 2_000);
      expect(index.get(started.exportId)).toMatchObject({ status: 'failed', error: 'INTERRUPTED', errorMessage: expect.stringMatching(/start it again/) });
      expect(await slots.isLive(caller.accountId, started.exportId)).toBe(false);
    } finally {
      // The engine's write ends after all (in a real shutdown the process exits first): it must not publish or complete.
      held.letGo();
    }
    await until(() => held.written !== undefined, { intervalMs: 10, what: 'the engine asked to write the file' });
    await held.written?.catch(() => undefined);
    await until(async () => !existsSync(runner.stagingPath(started.exportId)), { timeoutMs: 5_000, what: 'the staging file removed' });
    expect(await objects.stat(exportObjectKey(started.exportId))).toBeUndefined();
    expect(existsSync(path.join(config.data_dir, 'exports')) ? readdirSync(path.join(config.data_dir, 'exports')) : []).toEqual([]);

    // The log holds one outcome, the shutdown's: a restart sees the export failed.
    expect(await outcomesInLog(log, started.exportId)).toEqual([EXPORT_FAILED]);
  }, 30_000);
});

async function outcomesInLog(log: FileEventLog, exportId: number): Promise<string[]> {
  const outcomes: string[] = [];
  const subscription = await log.subscribe({
    groupId: `exports-check-${Date.now()}`,
    topics: [TOPICS.exports],
    startAt: async () => '0',
    handleBatch: async (batch) => {
      for (const { event } of batch.records) if (event.type !== EXPORT_STARTED && (event.payload as { exportId: number }).exportId === exportId) outcomes.push(event.type);
    },
  });
  await until(async () => (await subscription.lag()) === 0, { what: 'the exports topic read' });
  await subscription.stop();
  return outcomes;
}
