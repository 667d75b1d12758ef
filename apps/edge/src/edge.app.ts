import { Module } from '@nestjs/common';
import { EdgeModule, installEdgeRoute } from '@bpc/edge';
import { HealthModule, MetricsModule } from '@bpc/platform';
import { AppSpec, RuntimeModule } from '@bpc/composition';

@Module({})
class EdgeAppModule {}

/** Bot-facing serving: cached pages to bots, every request recorded. */
export const edgeApp: AppSpec = {
  name: 'edge',
  uses: ['eventLog', 'cacheStore', 'objectStore', 'pageRefresher', 'botVerifier', 'robotsTxt'],
  // Without the cache store no page can be served; without the event log pages are still served and recordings buffered.
  // Without the object store (page bodies) hot pages are still served from memory and misses rendered, answered unstored: degraded, not unready.
  criticalPorts: ['cacheStore'],
  module: (runtime) => ({ module: EdgeAppModule, imports: [RuntimeModule.forRuntime(runtime, edgeApp), HealthModule, MetricsModule, EdgeModule] }),
  configure: (app, runtime) => installEdgeRoute(app, runtime.logger.child({ component: 'edge' })),
};
