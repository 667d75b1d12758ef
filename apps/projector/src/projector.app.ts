import { Module } from '@nestjs/common';
import { AppSpec, RuntimeModule } from '@bpc/platform';
import { ProjectionsModule } from '@bpc/projections';

@Module({})
class ProjectorAppModule {}

/** Projection workers: the event log into the queue store. */
export const projectorApp: AppSpec = {
  name: 'projector',
  uses: ['eventLog', 'queueStore', 'cacheStore', 'explorerStore'],
  module: (runtime) => ({ module: ProjectorAppModule, imports: [RuntimeModule.forRuntime(runtime, projectorApp.uses), ProjectionsModule] }),
};
