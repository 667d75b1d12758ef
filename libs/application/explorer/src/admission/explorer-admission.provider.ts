import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { ExplorerAdmission } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';

/** One admission queue per app, shared by the Data Explorer queries and the exports (which import ExplorerModule for it). */
export const explorerAdmissionProvider: Provider = {
  provide: ExplorerAdmission,
  useFactory: (config: AppConfig, clock: Clock) =>
    new ExplorerAdmission({ maxRunning: config.explorer.max_concurrent_statements, perAccount: config.explorer.account_max_statements }, clock),
  inject: [APP_CONFIG, CLOCK],
};
