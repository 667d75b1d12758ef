import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock, emptyHostQueueCounts, estimateHostDrain, HostCatalog, noRecentCompletions, PRIORITIES, type Priority } from '@bpc/domain';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { DAEMON_ID } from '../shared/daemon-id';
import { GetStatus, HostQueueStatus, QueueDrainEstimateView, StatusSnapshot } from './get-status.query';
import { SCHEDULER_VIEW, SchedulerView } from './scheduler-view';

@QueryHandler(GetStatus)
export class GetStatusHandler implements IQueryHandler<GetStatus, StatusSnapshot> {
  private readonly startedAt: number;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hosts: HostCatalog,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(SCHEDULER_VIEW) private readonly scheduler: SchedulerView,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DAEMON_ID) private readonly daemonId: string,
  ) {
    this.startedAt = clock.now();
  }

  async execute(): Promise<StatusSnapshot> {
    const now = this.clock.now();
    const hostIds = this.hosts.hostIds();
    const [counts, paused] = await Promise.all([this.store.counts(now, hostIds), this.store.pausedHosts(now)]).catch((error: Error) => {
      throw new AppError('STORE_UNAVAILABLE', `queue store unavailable: ${error.message}`);
    });
    const shown = [...new Set([...hostIds, ...counts.keys()])];
    const completions = await this.store.recentCompletions(now, shown).catch((error: Error) => {
      throw new AppError('STORE_UNAVAILABLE', `queue store unavailable: ${error.message}`);
    });
    const queues: Record<string, HostQueueStatus> = {};
    for (const hostId of shown) {
      const hostCounts = counts.get(hostId) ?? emptyHostQueueCounts();
      const estimate = estimateHostDrain(hostCounts, completions.get(hostId) ?? noRecentCompletions(), paused.get(hostId), now);
      const drain_estimate = {} as Record<Priority, QueueDrainEstimateView>;
      for (const priority of PRIORITIES) drain_estimate[priority] = { seconds: estimate[priority].seconds, completed_per_minute: estimate[priority].completedPerMinute };
      queues[hostId] = { ...hostCounts, paused: paused.has(hostId), drain_estimate };
    }
    const { max_size } = this.config.internal_queue;
    const size = this.scheduler.internalQueueSize();
    const capacity = this.scheduler.renderCapacity();
    return {
      daemon: { daemon_id: this.daemonId, uptime_seconds: Math.floor((now - this.startedAt) / 1000), last_tick: this.scheduler.lastTick()?.toISOString() ?? null },
      internal_queue: { size, max_size, capacity_used_percent: Math.round((size / max_size) * 10_000) / 100 },
      rs_capacity: {
        total_free_tabs: capacity.freeTabs,
        reserved_for_online: capacity.reservedForOnline,
        available_for_recache: capacity.availableForRecache,
        reservation_percent: this.config.render_service.reservation_percent,
      },
      queues,
    };
  }
}
