import { AppError, systemClock } from '@bpc/domain';
import { AccountLimits, findExplorer } from '@bpc/explorer';
import { ExplorerAdmission } from '@bpc/explorer-store';
import { MemoryExportSlots } from '@bpc/export-slots';
import { createLogger } from '@bpc/platform';
import { testConfig } from '@bpc/testing';
import { ExportIndex } from '../state/export-index';
import { ExportRunner } from './export-runner';
import { exportRunnerEngines } from './export-runner.fixture';
import type { StartExportDto } from './start-export.dto';

const caller = { userId: 'ann', websiteId: 'demo', accountId: 'acme', startedFrom: 'api' } as const;
const body = { period: '7d', waitSeconds: 20 } as StartExportDto;

describe('ExportRunner behind the explorer admission queue (file log, chDB)', () => {
  const config = testConfig('standalone', { explorer: { account_max_statements: 2 } });
  const engines = exportRunnerEngines(config);

  it("refuses an export while its account has as many statements as it may (503 EXPLORER_BUSY, Retry-After) and claims nothing; it starts once there is room", async () => {
    const { log, store, objects } = engines;
    const slots = new MemoryExportSlots();
    const index = new ExportIndex(log, slots, config, systemClock);
    const admission = new ExplorerAdmission({ maxRunning: 3, perAccount: config.explorer.account_max_statements });
    const runner = new ExportRunner(index, slots, new AccountLimits(config), store, objects, admission, config, systemClock, createLogger('silent', 'exports'));
    runner.onApplicationBootstrap();
    await runner.ready();
    const held = [admission.enter('acme', Date.now() + 10_000), admission.enter('acme', Date.now() + 30_000)];

    const refusal = await runner.start(caller, findExplorer('events')!, body).then(() => undefined, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'EXPLORER_BUSY', retryAfterS: 1, message: expect.stringMatching(/already has 2 Data Explorer statements waiting or running/) });
    expect([...index.all()]).toEqual([]);
    expect(admission.load).toEqual({ running: 2, waiting: 0 });

    for (const ticket of held) ticket.leave();
    await expect(runner.start(caller, findExplorer('events')!, body)).resolves.toMatchObject({ status: 'completed', rowCount: 0 });
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
    await runner.onApplicationShutdown();
  }, 30_000);
});
