import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError } from '@bpc/domain';
import { ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { closeInProcessExplorerStore, IN_PROCESS_EXPLORER_STORES, insertBulkBotRequests, TestClock, testConfig, until } from '@bpc/testing';
import { AccountLimits } from '../account-limits';
import { RunExplorerQueryHandler } from './run-explorer-query.handler';
import { ExplorerQueryResult, RunExplorerQuery } from './run-explorer-query.query';

const BUDGET_MS = 30_000;
/** Valid, within the regex budget, and still real work for the engine over a million rows. */
const COSTLY = { filters: [{ field: 'url', op: 'regex', val: '[\\x{0}-\\x{10FFFF}]{1000}' }] };


describe.each(IN_PROCESS_EXPLORER_STORES)('a Data Explorer query behind the admission queue (%s)', (_name, open) => {
  const config = testConfig('standalone', { explorer: { query_timeout_ms: BUDGET_MS }, websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'other' }] });
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-explorer-admission-'));
  let store: ExplorerStore;

  beforeAll(async () => {
    store = open(dir);
    await store.migrate();
    const now = Date.now();
    await insertBulkBotRequests(store, 'demo', 1_000_000, now - 60_000);
    await insertBulkBotRequests(store, 'shop', 1_000, now - 60_000);
  }, 60_000);

  afterAll(() => closeInProcessExplorerStore(store, dir, config.data_dir));

  function setUp(limits: { maxRunning: number; perAccount: number }) {
    const clock = new TestClock();
    const admission = new ExplorerAdmission(limits, clock);
    const limited = { ...config, explorer: { ...config.explorer, max_concurrent_statements: limits.maxRunning, account_max_statements: limits.perAccount } };
    const handler = new RunExplorerQueryHandler(store, admission, clock, new AccountLimits(limited), limited);
    const query = (accountId: string, body: Record<string, unknown> = {}) =>
      handler.execute(new RunExplorerQuery(accountId === 'acme' ? 'demo' : 'shop', accountId, 'events', body, clock.now()));
    return { clock, admission, query };
  }

  it('runs a statement that waited for its place with what the wait left of the budget: the engine stops it there (504 QUERY_TIMEOUT)', async () => {
    const { clock, admission, query } = setUp({ maxRunning: 1, perAccount: 16 });
    const holder = admission.enter('other', clock.now() + 60_000);
    const answer = query('acme');
    await until(async () => admission.load.waiting === 2, { what: 'the count and the page waiting' });
    clock.advance(BUDGET_MS - 1);
    holder.leave();
    await expect(answer).rejects.toMatchObject({ code: 'QUERY_TIMEOUT', message: expect.stringMatching(/from its arrival, waiting for the engine included/) });
    await until(async () => admission.load.running + admission.load.waiting === 0, { what: 'the admission queue empty' });
  });

  it('refuses a statement still waiting at its deadline (503 EXPLORER_BUSY with Retry-After); it never reaches the engine', async () => {
    const { clock, admission, query } = setUp({ maxRunning: 1, perAccount: 16 });
    const holder = admission.enter('other', clock.now() + 60_000);
    const answer = query('acme');
    await until(async () => admission.load.waiting === 2, { what: 'the count and the page waiting' });
    clock.advance(BUDGET_MS);
    admission.expireDue();
    const refusal = await answer.then(() => undefined, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'EXPLORER_BUSY', retryAfterS: 1, message: expect.stringMatching(/no free place for this query within 30000 ms .*retry after 1 s/) });
    expect(admission.load).toEqual({ running: 1, waiting: 0 });
    holder.leave();
  });

  it("refuses at once a query beyond its account's limit, and still serves other accounts", async () => {
    const { query } = setUp({ maxRunning: 2, perAccount: 2 });
    const first = query('acme', COSTLY);
    first.catch(() => undefined);
    const second = query('acme', COSTLY);
    await expect(second).rejects.toMatchObject({ code: 'EXPLORER_BUSY', retryAfterS: 1, message: expect.stringMatching(/already has 2 Data Explorer statements waiting or running \(explorer.account_max_statements\)/) });
    await expect(query('other')).resolves.toMatchObject({ meta: { total: 1_000 } });
    await expect(first).resolves.toMatchObject({ meta: { total: 0 } });
  });

  it("serves another account's query while one account's flood waits its turn", async () => {
    const { admission, query } = setUp({ maxRunning: 3, perAccount: 16 });
    const flood: { settled: boolean; answer: Promise<ExplorerQueryResult> }[] = [];
    for (let i = 0; i < 5; i++) {
      const entry = { settled: false, answer: query('acme', COSTLY) };
      void entry.answer.finally(() => (entry.settled = true));
      flood.push(entry);
    }
    await until(async () => admission.load.waiting >= 6, { what: "the flood's statements waiting" });
    await expect(query('other')).resolves.toMatchObject({ meta: { total: 1_000 } });
    // Answered while most of the flood still waited: it was not queued behind it.
    expect(flood.filter((f) => !f.settled).length).toBeGreaterThanOrEqual(3);
    for (const { answer } of flood) await expect(answer).resolves.toMatchObject({ meta: { total: 0 } });
  }, 60_000);
});
