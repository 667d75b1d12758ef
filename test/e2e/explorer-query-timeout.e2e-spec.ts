import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { insertBulkBotRequests, jsonOf, removeTestDataDir, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

describe('a Data Explorer query that runs longer than explorer.query_timeout_ms', () => {
  let running: RunningApps;
  let api: string;
  let token: string;

  beforeAll(async () => {
    // 1 ms: any statement over a million rows outlasts it, however fast the machine.
    running = await startApps(standaloneApps, testConfig('standalone', { explorer: { query_timeout_ms: 1 } }), createLogger('warn', 'e2e-explorer-query-timeout'));
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'alice', website: 'demo', role: 'readonly' }));
    await insertBulkBotRequests(running.runtime.ports.explorerStore!, 'demo', 1_000_000, Date.now() - 60_000);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  it('is stopped by the engine and answers 504 QUERY_TIMEOUT, saying what to do', async () => {
    const response = await fetch(`${api}/api/websites/demo/data-explorer/events/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'unique_pages', period: '7d' }),
    });
    expect(response.status).toBe(504);
    expect(await jsonOf(response)).toEqual({
      code: 'QUERY_TIMEOUT',
      message: 'the query took longer than 1 ms from its arrival, waiting for the engine included (explorer.query_timeout_ms): choose a shorter period or add filters',
    });
  });

  it('leaves the engine able to answer the next query', async () => {
    const [{ n }] = await running.runtime.ports.explorerStore!.query<{ n: number }>('SELECT count() AS n FROM bot_requests WHERE website = {w:String}', { w: 'demo' });
    expect(Number(n)).toBe(1_000_000);
  });
});
