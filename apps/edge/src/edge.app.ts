import { Module } from '@nestjs/common';
import { EdgeModule, installEdgeRoute } from '@bpc/edge';
import { AppSpec, HealthModule, MetricsModule, RuntimeModule } from '@bpc/platform';

@Module({})
class EdgeAppModule {}

/** Bot-facing serving: cached pages to bots, every request recorded. */
export const edgeApp: AppSpec = {
  name: 'edge',
  uses: ['eventLog', 'cacheStore', 'pageRefresher'],
  module: (runtime) => ({ module: EdgeAppModule, imports: [RuntimeModule.forRuntime(runtime, edgeApp.uses), HealthModule, MetricsModule, EdgeModule] }),
  configure: (app, runtime) => installEdgeRoute(app, runtime.logger.child({ component: 'edge' })),
};
