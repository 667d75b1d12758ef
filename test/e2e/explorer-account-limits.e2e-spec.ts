import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

describe('Data Explorer limits per account', () => {
  let running: RunningApps;
  let api: string;
  let token: string;

  beforeAll(async () => {
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      websites: [{ id: 'small', host_id: 1, account_id: 'starter' }],
      accounts: [{ id: 'starter', limits: { per_page_max: 50, export_row_cap: 10_000 } }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', 'limits'));
    api = running.urls['public-api']!;
    token = (await issueToken(api, { user: 'ann', website: 'small', role: 'readonly' })).token;
  });
  afterAll(() => running?.close());

  const headers = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  it('reports the calling account\'s limits in discovery, the default page size lowered with the maximum', async () => {
    const discovery = await jsonOf(await fetch(`${api}/api/websites/small/data-explorer`, { headers: headers() }));
    expect(discovery.limits).toEqual({ perPageMax: 50, perPageDefault: 50, exportRowCap: 10_000 });
  });

  it('refuses a page size above the account\'s maximum and runs the default page size it reports', async () => {
    const tooBig = await fetch(`${api}/api/websites/small/data-explorer/events/query`, { method: 'POST', headers: headers(), body: JSON.stringify({ perPage: 51 }) });
    expect(tooBig.status).toBe(400);
    expect(await jsonOf(tooBig)).toMatchObject({ code: 'VALIDATION_FAILED', field: 'perPage' });
    const defaults = await jsonOf(await fetch(`${api}/api/websites/small/data-explorer/events/query`, { method: 'POST', headers: headers(), body: '{}' }));
    expect(defaults.meta.perPage).toBe(50);
  });
});
