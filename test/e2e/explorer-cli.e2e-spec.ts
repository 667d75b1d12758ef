import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, TEST_INTERNAL_KEY, testConfig, until } from '@bpc/testing';
import { runCli } from '../../apps/cli/src/run-cli';
import { standaloneApps } from '../../apps/standalone/src/standalone';

describe('operator CLI against the running service (tokens, demo data)', () => {
  let running: RunningApps;
  let api: string;

  beforeAll(async () => {
    running = await startApps(standaloneApps, testConfig('standalone'), createLogger('warn', 'e2e-explorer-cli'));
    api = running.urls['public-api']!;
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli([...argv, '--url', api], { env: { BPC_INTERNAL_KEY: TEST_INTERNAL_KEY }, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('issues, lists and revokes tokens; writes demo data the explorer then shows', async () => {
    const issued = await cli('tokens', 'issue', '--user', 'alice', '--website', 'demo', '--role', 'manager', '--expires', '2099-01-01', '--label', 'ci');
    expect(issued.code).toBe(0);
    const token = /bpc_tok_\S+/.exec(issued.out)![0];
    const tokenId = /^token (tok_[0-9a-f]+)/.exec(issued.out)![1];
    expect(issued.out).toContain('Shown once');

    const listed = await cli('tokens', 'list');
    expect(listed.out).toMatch(new RegExp(`${tokenId}\\talice\\tdemo:manager\\texpires 2099-01-01T00:00:00.000Z\\tci`));
    expect(listed.out).not.toContain(token);

    const demo = await cli('demo-data', '--days', '10', '--per-day', '200', '--json');
    expect(demo.code).toBe(0);
    const written = JSON.parse(demo.out);
    expect(written).toMatchObject({ websiteId: 'demo', searchDays: 10 });
    const queryBody = JSON.stringify({ period: '14d', perPage: 1 });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const total = async () => (await jsonOf(await fetch(`${api}/api/websites/demo/data-explorer/events/query`, { method: 'POST', headers, body: queryBody }))).meta.total;
    await until(total, (n) => n === written.botRequests, { what: 'the demo requests in the explorer' });
    // Search data comes through its own subscription: wait for it too.
    const searchPages = async () => jsonOf(await fetch(`${api}/api/websites/demo/data-explorer/search-pages/query`, { method: 'POST', headers, body: JSON.stringify({ period: '7d' }) }));
    const search = await until(searchPages, (answer) => answer.meta.total > 0, { what: 'the demo search data in the explorer' });
    expect(search.data[0]).toEqual(expect.objectContaining({ page: expect.stringMatching(/^https:\/\/www\.example\.com\//), clicks: expect.any(Number), _rowId: search.data[0].page }));

    expect((await cli('tokens', 'revoke', tokenId)).out).toBe(`revoked ${tokenId}`);
    const refused = await fetch(`${api}/api/websites/demo/data-explorer`, { headers });
    expect(refused.status).toBe(401);
  }, 40_000);

  it('reports errors with a non-zero exit code', async () => {
    const unknownWebsite = await cli('tokens', 'issue', '--user', 'a', '--website', 'nope', '--role', 'admin');
    expect(unknownWebsite).toMatchObject({ code: 1, err: expect.stringContaining('400 unknown website nope (website)') });
    expect((await cli('tokens', 'revoke', 'tok_0000000000000000')).code).toBe(1);
    expect((await cli('tokens', 'issue', '--user', 'a')).code).toBe(2);
    const badKey = await runCli(['tokens', 'list', '--url', api, '--internal-key', 'wrong'], { env: {}, out: () => undefined, err: () => undefined });
    expect(badKey).toBe(1);
  });
});
