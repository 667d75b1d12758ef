import type { Priority } from './priority';
import type { RecacheMode } from './recache-mode';

/** What is queued: one entry per host + URL + dimension. */
export interface QueueItem {
  readonly url: string;
  readonly dimensionId: number;
  /** Absent: the configured dimension or URL-rule action decides at render time. */
  readonly mode?: RecacheMode;
}

/** The identity of a queue entry within a host; a second request for the same key never duplicates it. */
export function queueEntryKey(dimensionId: number, url: string): string {
  return `${dimensionId}|${url}`;
}

export interface EntryCounts {
  readonly total: number;
  readonly due_now: number;
}

export type HostQueueCounts = Record<Priority, EntryCounts>;

export function emptyHostQueueCounts(): HostQueueCounts {
  return { high: { total: 0, due_now: 0 }, normal: { total: 0, due_now: 0 }, autorecache: { total: 0, due_now: 0 } };
}
