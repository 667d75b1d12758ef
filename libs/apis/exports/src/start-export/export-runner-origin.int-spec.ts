import { systemClock } from '@bpc/domain';
import { AccountLimits, findExplorer } from '@bpc/explorer';
import { ExplorerAdmission } from '@bpc/explorer-store';
import { MemoryExportSlots } from '@bpc/export-slots';
import { createLogger } from '@bpc/platform';
import { testConfig } from '@bpc/testing';
import { ExportIndex } from '../state/export-index';
import { ExportRunner } from './export-runner';
import { exportRunnerEngines } from './export-runner.fixture';
import type { StartExportDto } from './start-export.dto';

const ann = { userId: 'ann', websiteId: 'demo', accountId: 'acme' } as const;
const body = { period: '7d', waitSeconds: 20 } as StartExportDto;

describe('ExportRunner: where an export was started (file log, chDB)', () => {
  const config = testConfig('standalone');
  const engines = exportRunnerEngines(config);

  it('the same question from the dashboard and the API is one export; its record keeps where it was started, also after a replay', async () => {
    const { log, store, objects } = engines;
    const slots = new MemoryExportSlots();
    const admission = new ExplorerAdmission({ maxRunning: 3, perAccount: 2 });
    const runner = new ExportRunner(new ExportIndex(log, slots, config, systemClock), slots, new AccountLimits(config), store, objects, admission, config, systemClock, createLogger('silent', 'exports'));
    runner.onApplicationBootstrap();

    const fromDashboard = await runner.start({ ...ann, startedFrom: 'dashboard' }, findExplorer('events')!, body);
    expect(fromDashboard).toMatchObject({ status: 'completed', startedFrom: 'dashboard' });
    const fromApi = await runner.start({ ...ann, startedFrom: 'api' }, findExplorer('events')!, body);
    expect(fromApi).toMatchObject({ exportId: fromDashboard.exportId, startedFrom: 'dashboard' });
    const other = await runner.start({ ...ann, startedFrom: 'agent' }, findExplorer('events')!, { ...body, filename: 'other' } as StartExportDto);
    expect(other).toMatchObject({ status: 'completed', startedFrom: 'agent' });
    await runner.onApplicationShutdown();

    const replayed = new ExportIndex(log, slots, config, systemClock);
    await replayed.ready();
    expect(replayed.get(fromDashboard.exportId)).toMatchObject({ startedFrom: 'dashboard', createdAt: fromDashboard.createdAt });
    expect(replayed.get(other.exportId)?.startedFrom).toBe('agent');
  }, 30_000);
});
