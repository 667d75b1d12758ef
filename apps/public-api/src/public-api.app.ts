import { Module } from '@nestjs/common';
import { systemClock } from '@bpc/domain';
import { IdentityIndex } from '@bpc/identity';
import { AppSpec, RuntimeModule } from '@bpc/platform';
import { installBearerAuthentication, PublicApiModule } from '@bpc/public-api';

@Module({})
class PublicApiAppModule {}

/** The public, token-authenticated API (spec/public-api.md): Data Explorer and cache operations. */
export const publicApiApp: AppSpec = {
  name: 'public-api',
  uses: ['eventLog', 'explorerStore'],
  module: (runtime) => ({ module: PublicApiAppModule, imports: [RuntimeModule.forRuntime(runtime, publicApiApp.uses), PublicApiModule] }),
  configure: (app, runtime) => installBearerAuthentication(app.getHttpAdapter().getInstance(), app.get(IdentityIndex), runtime.clock ?? systemClock),
};
