import { Module } from '@nestjs/common';
import { HealthModule } from '@bpc/platform';
import { CacheProjector } from './cache/cache-projector';
import { QueueProjector } from './queue/queue-projector';
import { ExplorerProjector } from './explorer/explorer-projector';
import { ReceiptProjector } from './receipts/receipt-projector';

/** Projection workers: the event log into the queue store, the cache metadata and ClickHouse. */
@Module({
  imports: [HealthModule],
  providers: [QueueProjector, CacheProjector, ExplorerProjector, ReceiptProjector],
  exports: [QueueProjector, ExplorerProjector, ReceiptProjector],
})
export class ProjectionsModule {}
