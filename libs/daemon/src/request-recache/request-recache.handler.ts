import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, decideRecache, HostCatalog, RecacheDecision } from '@bpc/domain';
import { envelope, RECACHE_REQUESTED, RecacheRequested, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { EnqueueResult, QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { appendOrFail } from '../projection/append-or-fail';
import { waitForProjection } from '../projection/wait-for-projection';
import { RecacheAccepted, RequestRecache } from './request-recache.command';

/** Records RecacheRequested, then answers with the count the queue projection applied. */
@CommandHandler(RequestRecache)
export class RequestRecacheHandler implements ICommandHandler<RequestRecache, RecacheAccepted> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, source }: RequestRecache): Promise<RecacheAccepted> {
    const decision = decideRecache(input, this.hosts);
    const enqueued = decision.urls.length === 0 ? 0 : await this.record(decision, source);
    const paused = (await this.store.pausedHosts(this.clock.now())).has(decision.hostId);
    return {
      host_id: decision.hostId,
      urls_count: input.urls.length,
      dimension_ids_count: decision.dimensionIds.length,
      entries_enqueued: enqueued,
      priority: decision.priority,
      paused,
      ...(decision.mode ? { mode: decision.mode } : {}),
    };
  }

  /** Appends the fact and waits for the projection's count; URL rules may have left nothing to record. */
  private async record(decision: RecacheDecision, source: RequestRecache['source']): Promise<number> {
    const event: RecacheRequested = envelope(
      RECACHE_REQUESTED,
      1,
      { ...decision, source },
      { id: randomUUID(), occurredAt: new Date(this.clock.now()), key: String(decision.hostId) },
    );
    await appendOrFail(this.log, TOPICS.queue, [event]);
    const applied = await waitForProjection<EnqueueResult>(this.store, event.id);
    return applied.enqueued;
  }
}
