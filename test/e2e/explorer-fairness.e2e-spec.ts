import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { insertBulkBotRequests, Json, jsonOf, removeTestDataDir, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

/** Valid and within the regex budget, yet real work for the engine over a million rows (hundreds of ms a statement). */
const COSTLY = { filters: [{ field: 'url', op: 'regex', val: '[\\x{0}-\\x{10FFFF}]{1000}' }] };

interface Sent {
  answered: boolean;
  readonly response: Promise<{ status: number; retryAfter: string | null; body: Json }>;
}

describe('one account flooding the Data Explorer (standalone, chDB)', () => {
  let running: RunningApps;
  let api: string;
  let alpha: string;
  let beta: string;

  beforeAll(async () => {
    const config = testConfig('standalone', {
      websites: [
        { id: 'alpha', host_id: 1, account_id: 'account-a' },
        { id: 'beta', host_id: 2, account_id: 'account-b' },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-explorer-fairness'));
    api = running.urls['public-api']!;
    ({ token: alpha } = await issueToken(api, { user: 'ann', website: 'alpha', role: 'readonly' }));
    ({ token: beta } = await issueToken(api, { user: 'bob', website: 'beta', role: 'readonly' }));
    const store = running.runtime.ports.explorerStore!;
    await insertBulkBotRequests(store, 'alpha', 1_000_000, Date.now() - 60_000);
    await insertBulkBotRequests(store, 'beta', 1_000, Date.now() - 60_000);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  function send(website: string, token: string, body: unknown): Sent {
    const sent: Sent = {
      answered: false,
      response: fetch(`${api}/api/websites/${website}/data-explorer/events/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await jsonOf(response) })),
    };
    void sent.response.finally(() => (sent.answered = true));
    return sent;
  }

  const unanswered = (flood: readonly Sent[]) => flood.filter((s) => !s.answered).length;

  it("answers another account's query while the flood waits, instead of after it", async () => {
    // Eight queries, sixteen statements: as many as the account may have waiting or running, none refused.
    const flood = Array.from({ length: 8 }, () => send('alpha', alpha, COSTLY));
    // Once one flood query is answered the others have long arrived: the engine holds the flood.
    await Promise.race(flood.map((s) => s.response));
    const before = unanswered(flood);
    const answer = await send('beta', beta, {}).response;
    const after = unanswered(flood);
    expect(answer).toMatchObject({ status: 200, body: { meta: { total: 1_000 } } });
    // Not queued behind the flood: only queries already running beside it (two at most) may have been answered meanwhile.
    expect(before).toBeGreaterThanOrEqual(4);
    expect(after).toBeGreaterThanOrEqual(before - 2);
    for (const s of flood) expect((await s.response).status).toBe(200);
  }, 120_000);

  it("refuses an account's statements beyond its limit at once (503 EXPLORER_BUSY with Retry-After)", async () => {
    // Twelve queries, twenty-four statements, all sent at once: the account may have sixteen waiting or running.
    const answers = await Promise.all(Array.from({ length: 12 }, () => send('alpha', alpha, COSTLY).response));
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.body).toEqual({ code: 'EXPLORER_BUSY', message: expect.stringMatching(/already has 16 Data Explorer statements waiting or running \(explorer.account_max_statements\): retry after \d+ s$/) });
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect(answers.filter((a) => a.status !== 503).map((a) => a.status)).toEqual(answers.filter((a) => a.status !== 503).map(() => 200));
    expect((await send('beta', beta, {}).response).status).toBe(200);
  }, 120_000);
});
