import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError } from '@bpc/domain';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, envelope, SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded } from '@bpc/events';
import { ChdbExecutor, EXPLORER_DDL_DIR, ExplorerAdmission } from '@bpc/explorer-store';
import { explorerRows, type TableRows } from '@bpc/projections';
import { botRequestPayload, closeInProcessExplorerStore, TestClock, testConfig } from '@bpc/testing';
import { AccountLimits } from '../account-limits';
import { RunExplorerQueryHandler } from './run-explorer-query.handler';
import { RunExplorerQuery } from './run-explorer-query.query';

const DAY = 86_400_000;
/** Mid-day: the search explorers' 28d window is the 28 whole days before today. */
const NOW = Date.UTC(2026, 10, 28, 12);
const TODAY = Date.UTC(2026, 10, 28);
const page = (p: string) => `https://www.example.com/${p}`;

/**
 * The Data Explorer handler's own rules on real tables (chDB), rows written
 * as the explorer projection writes them: the explorer named, the account's
 * limits, the page asked for, and the companions of search rows.
 * (Admission and the time budget: run-explorer-query.int-spec.ts.)
 */
describe('RunExplorerQuery (chDB)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-explorer-query-'));
  // demo belongs to acme, whose pages hold at most 20 rows; shop to another account on the defaults.
  const config = testConfig('standalone', {
    websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 1, account_id: 'other' }],
    accounts: [{ id: 'acme', limits: { per_page_max: 20 } }],
  });
  const clock = new TestClock(NOW);
  let store: ChdbExecutor;
  let handler: RunExplorerQueryHandler;
  let made = 0;
  /** Every bot request given, as recorded (the fixture varies category, operator, verification, robots.txt and format). */
  const recorded: BotRequestRecorded[] = [];

  function served(websiteId: string, url: string, at: number, pageTitle: string, statusCode: number): BotRequestRecorded {
    made += 1;
    const payload = { ...botRequestPayload(made), websiteId, url, pageTitle, statusCode, servedAt: new Date(at).toISOString(), requestId: `req-${made}` };
    const event = envelope(BOT_REQUEST_RECORDED, 1, payload, { id: `ev-${made}`, occurredAt: new Date(at), key: websiteId });
    recorded.push(event);
    return event;
  }

  function searchDay(websiteId: string, date: string, rows: { key: string; clicks: number }[]): SearchPerformanceRecorded {
    made += 1;
    const payload = { websiteId, date, grain: 'page' as const, rows: rows.map((r) => ({ ...r, impressions: 100, position: 3 })), source: 'search-console-csv' as const };
    return envelope(SEARCH_PERFORMANCE_RECORDED, 1, payload, { id: `ev-${made}`, occurredAt: new Date(NOW - DAY), key: websiteId });
  }

  beforeAll(async () => {
    store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
    const tables: TableRows = new Map();
    const events = [
      // Search figures of demo for a, b and c; shop's own for a.
      searchDay('demo', '2026-11-20', [{ key: page('a'), clicks: 30 }, { key: page('b'), clicks: 20 }, { key: page('c'), clicks: 10 }]),
      searchDay('shop', '2026-11-20', [{ key: page('a'), clicks: 99 }]),
      // Bot requests of a: the latest within the window names its title and status; one today (after the window) and one of shop do not.
      served('demo', page('a'), TODAY - 5 * DAY, 'A, as it was', 200),
      served('demo', page('a'), TODAY - 2 * DAY, 'A', 301),
      served('demo', page('a'), TODAY + DAY / 4, 'A today', 404),
      served('shop', page('a'), TODAY - DAY, 'A at the shop', 200),
      // 25 more requests of demo within the last 24 hours (with "A today", 26: beyond acme's page size).
      ...Array.from({ length: 25 }, (_, i) => served('demo', page(`e${i}`), NOW - (i + 1) * 60_000, `E${i}`, 200)),
    ];
    for (const event of events) explorerRows(event, tables);
    for (const [table, rows] of tables) await store.insert({ table, rows, token: `given-${table}` });
    const admission = new ExplorerAdmission({ maxRunning: 2, perAccount: 8 }, clock);
    handler = new RunExplorerQueryHandler(store, admission, clock, new AccountLimits(config), config);
  }, 60_000);

  afterAll(() => closeInProcessExplorerStore(store, dir, config.data_dir));

  const query = (explorerKey: string, body: RunExplorerQuery['body'], websiteId = 'demo', accountId = 'acme') => handler.execute(new RunExplorerQuery(websiteId, accountId, explorerKey, body, clock.now()));
  const refusal = (answer: Promise<unknown>) => answer.then(() => undefined, (error: AppError) => ({ code: error.code, field: error.field }));

  it("gives each search row of the page its title and status from the URL's latest bot request of the website within the window (null without one)", async () => {
    const { data, meta } = await query('search-pages', {});
    expect(meta).toMatchObject({ explorerKey: 'search-pages', total: 3 });
    expect(data.map((r) => [r.page, r.clicks, r._title, r._status_code])).toEqual([
      [page('a'), 30, 'A', 301],
      [page('b'), 20, null, null],
      [page('c'), 10, null, null],
    ]);
  });

  it("reads only the website's own rows", async () => {
    const { data } = await query('search-pages', {}, 'shop', 'other');
    expect(data.map((r) => [r.page, r.clicks, r._title])).toEqual([[page('a'), 99, 'A at the shop']]);
  });

  it("pages by the account's limits: its default page size, and a larger perPage refused naming perPage", async () => {
    const { data, meta } = await query('events', { period: '24h' });
    expect(meta).toMatchObject({ total: 26, perPage: 20, page: 1, totalPages: 2 });
    expect(data).toHaveLength(20);
    expect(await refusal(query('events', { perPage: 21 }))).toEqual({ code: 'VALIDATION_FAILED', field: 'perPage' });
    // Another account, on the defaults, may ask for more.
    expect((await query('events', { period: '24h', perPage: 50 }, 'shop', 'other')).meta.perPage).toBe(50);
  });

  it('refuses a page past the last with VALIDATION_FAILED naming page (the first page of nothing is an empty page)', async () => {
    expect((await query('events', { period: '24h', page: 2 })).data).toHaveLength(6);
    expect(await refusal(query('events', { period: '24h', page: 3 }))).toEqual({ code: 'VALIDATION_FAILED', field: 'page' });
    expect((await query('events', { period: '24h', filters: [{ field: 'url', op: 'equals', val: page('none') }] })).meta).toMatchObject({ total: 0, totalPages: 0 });
  });

  it('filters on the bot fields and shows them as recorded: category, operator (as text), verification, robots.txt and answer format', async () => {
    const lastDay = recorded.filter((e) => e.key === 'demo' && Date.parse(e.occurredAt) >= NOW - DAY).map((e) => e.payload);
    const columns = ['page', 'bot_category', 'bot_operator', 'verified', 'robots_allowed', 'format'];
    const assistants = await query('events', { period: '24h', columns, sort: 'page', sortDir: 'asc', filters: [{ field: 'bot_category', op: 'eq', val: 'ai_assistant' }] });
    const expected = lastDay.filter((p) => p.botCategory === 'ai_assistant').sort((a, b) => (a.url < b.url ? -1 : 1));
    expect(expected.length).toBeGreaterThan(1);
    expect(assistants.meta.total).toBe(expected.length);
    expect(assistants.data.map((r) => [r.page, r.bot_category, r.bot_operator, r.verified, r.robots_allowed, r.format])).toEqual(
      expected.map((p) => [p.url, p.botCategory, p.botOperator, p.verified, p.robotsAllowed, p.format]),
    );

    const count = async (filters: RunExplorerQuery['body']['filters'], mode = 'requests') => (await query('events', { period: '24h', mode, filters })).meta.total;
    expect(await count([{ field: 'bot_operator', op: 'contains', val: 'openai' }])).toBe(lastDay.filter((p) => p.botOperator === 'OpenAI').length);
    expect(await count([{ field: 'verified', val: 'no' }, { field: 'format', op: 'ne', val: 'html' }], 'unique_pages')).toBe(
      new Set(lastDay.filter((p) => p.verified === 'no' && p.format === 'markdown').map((p) => p.url)).size,
    );
    expect(await count([{ field: 'robots_allowed', val: 'no' }])).toBe(lastDay.filter((p) => p.robotsAllowed === 'no').length);
    expect(await count([{ field: 'bot_category', op: 'ne', val: 'search' }])).toBe(lastDay.filter((p) => p.botCategory !== 'search').length);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ field: 'bot_category', val: 'robot' }, 'filters[0].val'],
    [{ field: 'verified', val: 'YES' }, 'filters[0].val'],
    [{ field: 'format', op: 'contains', val: 'mark' }, 'filters[0].op'],
    [{ field: 'robots_allowed', val: 1 }, 'filters[0].val'],
    [{ field: 'bot_operator', op: 'eq', val: 'OpenAI' }, 'filters[0].op'],
  ])('refuses the bot-field filter %j naming %s', async (filter, field) => {
    expect(await refusal(query('events', { filters: [filter as never] }))).toEqual({ code: 'VALIDATION_FAILED', field });
  });

  it.each(['nope', 'renders'])('answers NOT_FOUND for the explorer key %s (render history has endpoints of its own)', async (key) => {
    expect(await refusal(query(key, {}))).toEqual({ code: 'NOT_FOUND', field: undefined });
  });
});
