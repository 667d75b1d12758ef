import type { HostQueueCounts } from '@bpc/domain';

/** The status snapshot of the daemon specification, computed from live state. */
export class GetStatus {}

export interface HostQueueStatus extends HostQueueCounts {
  /** Later envelope form only. */
  readonly paused: boolean;
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
