import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BOT_REQUEST_RECORDED, envelope } from '@bpc/events';
import { DEFAULT_LIMITS, findExplorer, resolveQuery } from '@bpc/explorer';
import { BOT_REQUEST_EVENTS_TABLE, ChdbExecutor, EXPLORER_DDL_DIR } from '@bpc/explorer-store';
import { FileObjectStore } from '@bpc/object-store';
import { botRequestPayload } from '@bpc/testing';
import { buildExportSql, exportResourceSettings } from './export-sql';
import { writeCsvObject } from './write-csv-object';

const NOW = Date.UTC(2026, 10, 21, 12);

/** An export of the events explorer's bot fields on real tables: the columns as the explorer shows them, in the CSV. */
describe('CSV export of the bot fields (chDB)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-export-bot-fields-'));
  let store: ChdbExecutor;

  beforeAll(async () => {
    store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
    const event = (n: number, fields: Record<string, unknown>) => {
      const payload = { ...botRequestPayload(n), websiteId: 'w', servedAt: new Date(NOW - n * 60_000).toISOString(), requestId: `r${n}`, ...fields };
      return envelope(BOT_REQUEST_RECORDED, 1, payload, { id: `e${n}`, occurredAt: new Date(NOW - n * 60_000), key: 'w' });
    };
    // Recorded before the bot fields existed.
    const added = new Set(['format', 'botCategory', 'botOperator', 'verified', 'robotsAllowed']);
    const older = Object.fromEntries(Object.entries(botRequestPayload(3)).filter(([field]) => !added.has(field)));
    const rows = [
      event(1, { format: 'markdown', botCategory: 'ai_assistant', botOperator: 'OpenAI', verified: 'yes', robotsAllowed: 'yes' }),
      // A hostile operator name (a formula to a spreadsheet) stays text in the file.
      event(2, { format: 'html', botCategory: 'search', botOperator: '=HYPERLINK("x")', verified: 'no', robotsAllowed: 'no' }),
      envelope(BOT_REQUEST_RECORDED, 1, { ...older, websiteId: 'w', servedAt: new Date(NOW - 3 * 60_000).toISOString(), requestId: 'r3' }, { id: 'e3', occurredAt: new Date(NOW - 3 * 60_000), key: 'w' }),
    ];
    await store.insert({ table: BOT_REQUEST_EVENTS_TABLE, rows: rows.map((e) => ({ ...e })), token: 'given' });
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the requested bot columns under their keys, an older request with the defaults, formulas neutralised', async () => {
    const columns = ['bot_category', 'bot_operator', 'verified', 'robots_allowed', 'format'];
    const query = { ...resolveQuery(findExplorer('events')!, { columns, period: '24h', sort: 'event_date_time', sortDir: 'desc' }, NOW, DEFAULT_LIMITS), perPage: 100, page: 1 };
    const objects = new FileObjectStore(path.join(dir, 'objects'));
    const target = { key: 'exports/1.csv', stagingPath: path.join(dir, 'staging', '1.csv') };
    expect(await writeCsvObject(store, objects, buildExportSql(query, 'w', exportResourceSettings(true)), target)).toMatchObject({ rowCount: 3 });
    expect((await objects.read(target.key)).toString('utf8').split('\r\n')).toEqual([
      '"bot_category","bot_operator","verified","robots_allowed","format"',
      '"ai_assistant","OpenAI","yes","yes","markdown"',
      `"search","'=HYPERLINK(""x"")","no","no","html"`,
      '"other","unknown","unknown","unknown","html"',
      '',
    ]);
  });
});
