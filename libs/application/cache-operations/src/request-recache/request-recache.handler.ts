import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppError, Clock, decideRecache, HostCatalog, RecacheDecision } from '@bpc/domain';
import { newQueueEvent, RECACHE_REQUESTED, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { EnqueueResult, QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { recordAndProject } from '../projection/record-and-project';
import { QueueActivity } from '../queue-activity';
import { newReceiptId } from './receipt-id';
import { RecacheAccepted, RequestRecache } from './request-recache.command';

/** Records RecacheRequested, then answers with the count the queue projection applied. */
@CommandHandler(RequestRecache)
export class RequestRecacheHandler implements ICommandHandler<RequestRecache, RecacheAccepted> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly activity: QueueActivity,
  ) {}

  async execute({ input, source, receiptId = newReceiptId(this.clock.now()) }: RequestRecache): Promise<RecacheAccepted> {
    const decision = decideRecache(input, this.hosts);
    // Read before recording: a failure here must not answer 500 for work already queued.
    const paused = (await this.pausedHosts()).has(decision.hostId);
    const enqueued = decision.urls.length === 0 ? 0 : await this.record(decision, source, receiptId);
    return {
      hostId: decision.hostId,
      urlsCount: input.urls.length,
      dimensionIdsCount: decision.dimensionIds.length,
      entriesEnqueued: enqueued,
      priority: decision.priority,
      paused,
      ...(decision.mode ? { mode: decision.mode } : {}),
      receiptId,
    };
  }

  private async pausedHosts(): Promise<ReadonlyMap<number, number>> {
    try {
      return await this.store.pausedHosts(this.clock.now());
    } catch (error) {
      throw new AppError('STORE_UNAVAILABLE', `queue store unavailable, nothing was changed: ${(error as Error).message}`);
    }
  }

  /** URL rules may have left nothing to record. */
  private async record(decision: RecacheDecision, source: RequestRecache['source'], receiptId: string): Promise<number> {
    const event = newQueueEvent(RECACHE_REQUESTED, { ...decision, source, receiptId }, String(decision.hostId), this.clock.now());
    const applied = await recordAndProject<EnqueueResult>(this.log, this.store, TOPICS.queue, event);
    this.activity.workQueued();
    return applied.enqueued;
  }
}
