import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { changesBetween, type PageFacts } from '@bpc/domain';
import { newRenderRecorded, RenderRecorded, RenderRecordedPayload, TOPICS } from '@bpc/events';
import { ChdbExecutor, EXPLORER_DDL_DIR, PAGE_CHANGES_MERGED_SQL, PAGE_CRITICAL_DAYS_TABLE, PAGES_TABLE } from '@bpc/explorer-store';
import { ReadinessRegistry } from '@bpc/platform';
import { until } from '@bpc/testing';
import { factsWith, healthyFacts } from '../../../../core/domain/src/pages/page-facts.fixtures';
import { ExplorerProjector } from './explorer-projector';
import { explorerRows, type TableRows } from './explorer-projection';
import { explorerProjectorEngines } from './explorer-projector.fixture';

const logger = pino({ level: 'silent' });
const t0 = Date.parse('2026-11-01T08:00:00Z');
const url = 'https://www.example.com/widgets/blue';

/** A stored render of the page at `t0 + i` minutes with `facts` and the changes against `previous`. */
function render(i: number, facts: PageFacts | undefined, previous?: PageFacts, over: Partial<RenderRecordedPayload> = {}): RenderRecorded {
  const changes = facts && previous ? changesBetween(previous, facts) : [];
  const payload: RenderRecordedPayload = {
    hostId: 1, url, dimensionId: 1, mode: 'render', trigger: 'recache_normal', outcome: 'stored', reason: '', statusCode: facts?.statusCode ?? 0, renderMs: 100, bytes: facts?.bytes ?? 0, attempt: 1,
    ...(facts ? { facts } : {}),
    ...(changes.length > 0 ? { changes } : {}),
    ...over,
  };
  return { ...newRenderRecorded(payload, t0 + i * 60_000), id: `render-${i}` };
}

describe('SEO health: RenderRecorded facts and changes into pages, page_critical_days and page_changes', () => {
  const engines = explorerProjectorEngines('bpc-page-projection-');

  const page = async () =>
    (await engines.store.query<Record<string, unknown>>(`SELECT title, canonical, noindex_by, issues, critical_issues, toString(rendered_at) AS rendered_at FROM ${PAGES_TABLE} FINAL WHERE host_id = 1 AND url = {url:String}`, { url }))[0];
  const days = () =>
    engines.store.query<Record<string, unknown>>(
      `SELECT toString(day) AS day, toString(rendered_at) AS rendered_at, critical_issues, issues FROM ${PAGE_CRITICAL_DAYS_TABLE} FINAL WHERE host_id = 1 AND url = {url:String} ORDER BY day`,
      { url },
    );
  const changes = () =>
    engines.store.query<Record<string, unknown>>(`SELECT field, before, after, severity, toString(changed_at) AS changed_at, renders FROM (${PAGE_CHANGES_MERGED_SQL}) ORDER BY field`, { hostId: 1, startDate: '2026-11-01', endDate: '2026-11-03' });

  it('keeps the latest facts with their page-level issues, and one coalesced change per field and day however often it flips, counted once when projected twice', async () => {
    const noindex = factsWith({ noindexBy: ['robots'], title: 'Blue widgets (old)' });
    const events = [
      render(0, healthyFacts),
      render(1, noindex, healthyFacts),
      // Flipping on every render: still one row per field and day.
      ...Array.from({ length: 40 }, (_, k) => render(2 + k, k % 2 === 0 ? healthyFacts : noindex, k % 2 === 0 ? noindex : healthyFacts)),
      render(42, noindex, healthyFacts),
      // No facts (nothing produced): the page keeps its row.
      render(43, undefined, undefined, { outcome: 'gave_up', reason: 'timed out' }),
      // The next day.
      render(24 * 60 + 1, factsWith({ noindexBy: ['robots'], title: 'Blue widgets (old)', wordCount: 100 }), noindex),
    ];
    await engines.log.append(TOPICS.renders, events.slice(0, 30));
    await engines.log.append(TOPICS.renders, events.slice(25)); // 25–29 delivered twice

    const projector = new ExplorerProjector(engines.log, engines.store, logger, new ReadinessRegistry());
    projector.onApplicationBootstrap();
    await until(async () => (await projector.lag()) === 0 && (await changes()).length === 3);
    await projector.onApplicationShutdown();

    expect(await page()).toEqual({
      title: 'Blue widgets (old)',
      canonical: healthyFacts.canonical,
      noindex_by: ['robots'],
      issues: ['noindex', 'thin_content'],
      critical_issues: 1,
      rendered_at: '2026-11-02 08:01:00.000',
    });
    expect(await changes()).toEqual([
      { field: 'noindex', before: 'false', after: 'true', severity: 'critical', changed_at: '2026-11-01 08:42:00.000', renders: 42 },
      { field: 'title', before: 'Blue widgets – Example', after: 'Blue widgets (old)', severity: 'notice', changed_at: '2026-11-01 08:42:00.000', renders: 42 },
      { field: 'word_count', before: '640', after: '100', severity: 'warning', changed_at: '2026-11-02 08:01:00.000', renders: 1 },
    ]);
    // Each day's latest render with facts, its issue codes with it: what the SEO insight's days count.
    expect(await days()).toEqual([
      { day: '2026-11-01', rendered_at: '2026-11-01 08:42:00.000', critical_issues: 1, issues: ['noindex'] },
      { day: '2026-11-02', rendered_at: '2026-11-02 08:01:00.000', critical_issues: 1, issues: ['noindex', 'thin_content'] },
    ]);
  }, 60_000);
});

describe('page_critical_days on a database created before it kept issue codes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-page-days-upgrade-'));
  let store: ChdbExecutor;
  const daysRead = () =>
    store.query<Record<string, unknown>>(`SELECT toString(day) AS day, critical_issues, issues FROM ${PAGE_CRITICAL_DAYS_TABLE} FINAL WHERE host_id = 1 ORDER BY day`);

  // Created with 012_page_critical_days.sql alone, holding a row, then migrated to the current DDL (twice: every boot runs it again).
  beforeAll(async () => {
    const firstDdl = path.join(dir, 'first-ddl');
    mkdirSync(path.join(firstDdl, 'pages'), { recursive: true });
    copyFileSync(path.join(EXPLORER_DDL_DIR, 'pages', '012_page_critical_days.sql'), path.join(firstDdl, 'pages', '012_page_critical_days.sql'));
    const first = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: firstDdl });
    await first.migrate();
    const before = { host_id: 1, day: '2026-10-31', url, dimension_id: 1, rendered_at: '2026-10-31T08:00:00.000Z', critical_issues: 1 };
    await first.insert({ table: PAGE_CRITICAL_DAYS_TABLE, rows: [before], token: 'before' });
    await first.close();
    store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
    await store.migrate();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the older row without codes and takes the codes of rows projected since', async () => {
    const tables: TableRows = new Map();
    explorerRows(render(0, factsWith({ noindexBy: ['robots'] })), tables);
    await store.insert({ table: PAGE_CRITICAL_DAYS_TABLE, rows: tables.get(PAGE_CRITICAL_DAYS_TABLE)!, token: 'after' });
    expect(await daysRead()).toEqual([
      { day: '2026-10-31', critical_issues: 1, issues: [] },
      { day: '2026-11-01', critical_issues: 1, issues: ['noindex'] },
    ]);
  });
});
