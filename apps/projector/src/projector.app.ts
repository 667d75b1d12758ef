import { Module } from '@nestjs/common';
import { MetricsModule } from '@bpc/platform';
import { AppSpec, RuntimeModule } from '@bpc/composition';
import { ProjectionsModule } from '@bpc/projections';
import { AlertsModule } from '@bpc/alerts';

@Module({})
class ProjectorAppModule {}

/** Projection workers: the event log into the queue store, the cache metadata and ClickHouse; and the websites' alert webhooks. */
export const projectorApp: AppSpec = {
  name: 'projector',
  uses: ['eventLog', 'queueStore', 'cacheStore', 'objectStore', 'explorerStore'],
  // It takes no traffic: ready means every projection can advance.
  criticalPorts: ['eventLog', 'queueStore', 'cacheStore', 'explorerStore'],
  module: (runtime) => ({ module: ProjectorAppModule, imports: [RuntimeModule.forRuntime(runtime, projectorApp), MetricsModule, ProjectionsModule, AlertsModule] }),
};
