import { Module } from '@nestjs/common';
import { HealthModule } from '@bpc/platform';
import { QueueProjector } from './queue/queue-projector';
import { ExplorerProjector } from './explorer/explorer-projector';

/** Projection workers: the event log into the queue store (and, later, ClickHouse). */
@Module({
  imports: [HealthModule],
  providers: [QueueProjector, ExplorerProjector],
  exports: [QueueProjector, ExplorerProjector],
})
export class ProjectionsModule {}
