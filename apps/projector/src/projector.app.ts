import { Module } from '@nestjs/common';
import { AppSpec, MetricsModule, RuntimeModule } from '@bpc/platform';
import { ProjectionsModule } from '@bpc/projections';

@Module({})
class ProjectorAppModule {}

/** Projection workers: the event log into the queue store, the cache metadata and ClickHouse. */
export const projectorApp: AppSpec = {
  name: 'projector',
  uses: ['eventLog', 'queueStore', 'cacheStore', 'explorerStore'],
  // It takes no traffic: ready means every projection can advance.
  criticalPorts: ['eventLog', 'queueStore', 'cacheStore', 'explorerStore'],
  module: (runtime) => ({ module: ProjectorAppModule, imports: [RuntimeModule.forRuntime(runtime, projectorApp), MetricsModule, ProjectionsModule] }),
};
