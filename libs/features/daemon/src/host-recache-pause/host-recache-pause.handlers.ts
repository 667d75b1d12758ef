import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { recordAndProject } from '@bpc/cache-operations';
import { Clock, HostCatalog, pauseDeadline, toUnixSeconds } from '@bpc/domain';
import { HOST_RECACHE_PAUSED, HOST_RECACHE_RESUMED, newQueueEvent, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { requireHost } from '../shared/require-host';
import { HostPausedResult, HostResumedResult, PauseHostRecache, ResumeHostRecache } from './host-recache-pause.commands';

/** The pause lives in the cluster's own queue store: the scheduler's claims skip the host from the next pull on. */
@CommandHandler(PauseHostRecache)
export class PauseHostRecacheHandler implements ICommandHandler<PauseHostRecache, HostPausedResult> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ hostId }: PauseHostRecache): Promise<HostPausedResult> {
    requireHost(this.hosts, hostId);
    const now = this.clock.now();
    const expiresAt = pauseDeadline(now);
    await recordAndProject(this.log, this.store, TOPICS.queue, newQueueEvent(HOST_RECACHE_PAUSED, { hostId, expiresAt }, String(hostId), now));
    return { paused: true, expires_at: toUnixSeconds(expiresAt) };
  }
}

@CommandHandler(ResumeHostRecache)
export class ResumeHostRecacheHandler implements ICommandHandler<ResumeHostRecache, HostResumedResult> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ hostId }: ResumeHostRecache): Promise<HostResumedResult> {
    requireHost(this.hosts, hostId);
    const event = newQueueEvent(HOST_RECACHE_RESUMED, { hostId }, String(hostId), this.clock.now());
    await recordAndProject(this.log, this.store, TOPICS.queue, event);
    return { paused: false };
  }
}
