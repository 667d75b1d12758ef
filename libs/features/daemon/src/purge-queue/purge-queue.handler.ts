import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { recordAndProject } from '@bpc/cache-operations';
import { Clock, HostCatalog, resolvePurgePriorities } from '@bpc/domain';
import { newQueueEvent, QUEUE_PURGED, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { requireHost } from '../shared/require-host';
import { PurgeQueue, QueuePurgedResult } from './purge-queue.command';

/** Records QueuePurged and answers the count the projection removed (never a partial count: an error is a 500). */
@CommandHandler(PurgeQueue)
export class PurgeQueueHandler implements ICommandHandler<PurgeQueue, QueuePurgedResult> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ hostId, priorities }: PurgeQueue): Promise<QueuePurgedResult> {
    requireHost(this.hosts, hostId);
    const event = newQueueEvent(QUEUE_PURGED, { hostId, priorities: resolvePurgePriorities(priorities) }, String(hostId), this.clock.now());
    return { entries_purged: await recordAndProject<number>(this.log, this.store, TOPICS.queue, event) };
  }
}
