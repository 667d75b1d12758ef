import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG } from '@bpc/platform';
import { DEFAULT_LIMITS, ExplorerLimits } from './catalog/explorer-catalog';

/**
 * Data Explorer limits per account (`accounts[].limits`); an account not
 * configured gets the specification's defaults. A smaller `perPageMax`
 * lowers the default page size with it.
 */
@Injectable()
export class AccountLimits {
  private readonly byAccount: ReadonlyMap<string, ExplorerLimits>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.byAccount = new Map(
      config.accounts.map((account) => {
        const perPageMax = account.limits.per_page_max ?? DEFAULT_LIMITS.perPageMax;
        return [
          account.id,
          {
            perPageMax,
            perPageDefault: account.limits.per_page_default ?? Math.min(DEFAULT_LIMITS.perPageDefault, perPageMax),
            exportRowCap: account.limits.export_row_cap ?? DEFAULT_LIMITS.exportRowCap,
          },
        ];
      }),
    );
  }

  of(accountId: string): ExplorerLimits {
    return this.byAccount.get(accountId) ?? DEFAULT_LIMITS;
  }
}
