import { systemClock } from '@bpc/domain';
import { AccountLimits, findExplorer, rendersCatalogOf } from '@bpc/explorer';
import { ExplorerAdmission } from '@bpc/explorer-store';
import { MemoryExportSlots } from '@bpc/export-slots';
import { createLogger } from '@bpc/platform';
import { insertRenderOutcomes, renderOutcome, testConfig } from '@bpc/testing';
import { exportObjectKey } from '../domain/export-object-key';
import { ExportIndex } from '../state/export-index';
import { ExportRunner } from '../start-export/export-runner';
import { exportRunnerEngines } from '../start-export/export-runner.fixture';

const ann = { userId: 'ann', websiteId: 'demo', accountId: 'acme', startedFrom: 'api' } as const;
const HOUR = 3_600_000;

describe('ExportRunner: render history exports (file log, chDB)', () => {
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'acme' }] });
  const engines = exportRunnerEngines(config);

  it("writes the renders question's rows (its host's only, newest first) as CSV, through the account's one slot", async () => {
    const { log, store, objects } = engines;
    const now = Date.now();
    await insertRenderOutcomes(store, [
      renderOutcome(new Date(now - HOUR), { url: 'https://www.example.com/a', outcome: 'kept_soft_404', reason: 'soft 404 (title: Not found)', dimension_id: 2, event_id: 'x1' }),
      renderOutcome(new Date(now - 2 * HOUR), { url: 'https://www.example.com/=cmd', render_ms: 321, event_id: 'x2' }),
      renderOutcome(new Date(now - HOUR), { host_id: 2, url: 'https://shop.example.org/secret', event_id: 'x3' }),
    ]);
    const slots = new MemoryExportSlots();
    const admission = new ExplorerAdmission({ maxRunning: 3, perAccount: 2 });
    const runner = new ExportRunner(new ExportIndex(log, slots, config, systemClock), slots, new AccountLimits(config), store, objects, admission, config, systemClock, createLogger('silent', 'exports'));
    runner.onApplicationBootstrap();
    try {
      const record = await runner.start(ann, rendersCatalogOf(config, 'demo'), { columns: ['page', 'dimension', 'outcome', 'reason', 'render_ms'], period: '24h', filename: 'renders' });
      expect(record).toMatchObject({ status: 'completed', explorerKey: 'renders', rowCount: 2, filename: 'renders.csv', columns: ['page', 'dimension', 'outcome', 'reason', 'render_ms'] });
      expect((await objects.read(exportObjectKey(record.exportId))).toString('utf8')).toBe(
        '"page","dimension","outcome","reason","render_ms"\r\n' +
          '"https://www.example.com/a","mobile","kept_soft_404","soft 404 (title: Not found)",1000\r\n' +
          '"https://www.example.com/=cmd","desktop","stored","",321\r\n',
      );
      const reasons = await runner.start(ann, rendersCatalogOf(config, 'demo'), { mode: 'reasons', period: '24h' });
      expect(reasons).toMatchObject({ status: 'completed', explorerKey: 'renders', rowCount: 2, filename: 'renders-export.csv' });

      // An explorer export holding the account's slot: a renders export of any of its websites waits its turn (409).
      await slots.claim('acme', 'elsewhere', 'another-question', 60_000);
      const busy = await runner.start({ ...ann, websiteId: 'shop' }, rendersCatalogOf(config, 'shop'), { period: '24h' }).then(() => undefined, (error: { code: string }) => error.code);
      expect(busy).toBe('EXPORT_SLOT_BUSY');
      const explorerBusy = await runner.start(ann, findExplorer('events')!, { period: '24h' }).then(() => undefined, (error: { code: string }) => error.code);
      expect(explorerBusy).toBe('EXPORT_SLOT_BUSY');
    } finally {
      await runner.onApplicationShutdown();
    }
  }, 30_000);

  it('refuses a bad renders export body with VALIDATION_FAILED naming the field', async () => {
    const { log, store, objects } = engines;
    const slots = new MemoryExportSlots();
    const runner = new ExportRunner(new ExportIndex(log, slots, config, systemClock), slots, new AccountLimits(config), store, objects, new ExplorerAdmission({ maxRunning: 3, perAccount: 2 }), config, systemClock, createLogger('silent', 'exports'));
    runner.onApplicationBootstrap();
    try {
      const refused = (body: Record<string, unknown>) => runner.start(ann, rendersCatalogOf(config, 'demo'), body).then(() => undefined, (error: { code: string; field?: string }) => ({ code: error.code, field: error.field }));
      expect(await refused({ mode: 'unique_pages' })).toEqual({ code: 'VALIDATION_FAILED', field: 'mode' });
      expect(await refused({ filters: [{ field: 'outcome_class', val: 'broken' }] })).toEqual({ code: 'VALIDATION_FAILED', field: 'filters[0].val' });
      expect(await refused({ maxRows: 2_000_000 })).toEqual({ code: 'VALIDATION_FAILED', field: 'maxRows' });
    } finally {
      await runner.onApplicationShutdown();
    }
  });
});
