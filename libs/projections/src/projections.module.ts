import { Module } from '@nestjs/common';
import { HealthModule } from '@bpc/platform';
import { QueueProjector } from './queue/queue-projector';

/** Projection workers: the event log into the queue store (and, later, ClickHouse). */
@Module({
  imports: [HealthModule],
  providers: [QueueProjector],
  exports: [QueueProjector],
})
export class ProjectionsModule {}
