import type { HostQueueCounts, Priority } from '@bpc/domain';

/** The status snapshot of the daemon specification, computed from live state. */
export class GetStatus {}

/** One queue's estimated time to drain (see `estimateQueueDrain`). */
export interface QueueDrainEstimateView {
  /** Seconds until empty at the recent completion rate, plus a pause's remaining time; null while no rate is known. */
  readonly seconds: number | null;
  /** Claims completed or given up per minute over the last ten minutes. */
  readonly completed_per_minute: number;
}

export interface HostQueueStatus extends HostQueueCounts {
  /** Later envelope form only. */
  readonly paused: boolean;
  /** Later envelope form only (added for issue 32): an estimate, per queue. */
  readonly drain_estimate: Readonly<Record<Priority, QueueDrainEstimateView>>;
}

export interface StatusSnapshot {
  readonly daemon: { readonly daemon_id: string; readonly uptime_seconds: number; readonly last_tick: string | null };
  readonly internal_queue: { readonly size: number; readonly max_size: number; readonly capacity_used_percent: number };
  readonly rs_capacity: {
    readonly total_free_tabs: number;
    readonly reserved_for_online: number;
    readonly available_for_recache: number;
    readonly reservation_percent: number;
  };
  readonly queues: Readonly<Record<string, HostQueueStatus>>;
}
