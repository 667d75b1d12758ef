import { rmSync } from 'node:fs';
import { testConfig } from '@bpc/testing';
import { AccountLimits } from '../account-limits';
import { DiscoverExplorers } from './discover-explorers.query';
import { DiscoverExplorersHandler } from './discover-explorers.handler';

/** The handler only serves the catalog (discovery.spec.ts) under the account's limits: what these pin is which limits. */
describe('DiscoverExplorers', () => {
  const config = testConfig('standalone', {
    accounts: [
      { id: 'small', limits: { per_page_max: 40 } },
      { id: 'tuned', limits: { per_page_max: 300, per_page_default: 250, export_row_cap: 5_000 } },
    ],
  });
  const handler = new DiscoverExplorersHandler(new AccountLimits(config));

  afterAll(() => rmSync(config.data_dir, { recursive: true, force: true }));

  const limitsOf = async (accountId: string) => {
    const doc = await handler.execute(new DiscoverExplorers(accountId));
    // Every explorer carries the account's limits too.
    for (const explorer of doc.explorers) expect(explorer.limits).toEqual(doc.limits);
    return doc.limits;
  };

  it("serves every explorer under the account's configured limits", async () => {
    expect(await limitsOf('tuned')).toEqual({ perPageMax: 300, perPageDefault: 250, exportRowCap: 5_000 });
  });

  it('lowers the default page size with a smaller largest page, and keeps the defaults the account does not set', async () => {
    expect(await limitsOf('small')).toEqual({ perPageMax: 40, perPageDefault: 40, exportRowCap: 1_000_000 });
  });

  it("serves an account the configuration does not name under the specification's defaults", async () => {
    expect(await limitsOf('acme')).toEqual({ perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 });
  });
});
