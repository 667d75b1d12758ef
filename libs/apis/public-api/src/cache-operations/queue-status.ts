import { type HostQueueCounts, emptyHostQueueCounts, noRecentCompletions, type RecentCompletions, estimateQueueDrain, storeUnavailable } from '@bpc/domain';
import type { QueueStore } from '@bpc/queue-store';

export interface QueuedCount {
  readonly total: number;
  /** Entries whose due time has come: the next pulls take them (unless the host is paused). */
  readonly due: number;
}

/** One queue's estimated time to drain. */
export interface DrainEstimateView {
  /** Seconds until the queue is empty at its recent completion rate, plus the pause's remaining time; null while no rate is known. */
  readonly seconds: number | null;
  /** Entries completed or given up per minute over the last ten minutes. */
  readonly completedPerMinute: number;
}

/** The public view of a website's host queues. */
export interface QueueStatusView {
  readonly hostId: number;
  readonly queues: { readonly high: QueuedCount; readonly normal: QueuedCount };
  readonly paused: boolean;
  readonly pausedUntil: string | null;
  readonly drainEstimate: { readonly high: DrainEstimateView; readonly normal: DrainEstimateView };
}

/**
 * The priorities a customer queues (`high`, `normal`); `autorecache` is the
 * service's own refresh of served pages and is left out. A pause is shown
 * with its deadline (UTC ISO), absent once it has expired.
 */
export function queueStatusView(
  hostId: number,
  counts: HostQueueCounts | undefined,
  pausedUntilMs: number | undefined,
  completions: RecentCompletions = noRecentCompletions(),
  now = Date.now(),
): QueueStatusView {
  const { high, normal } = counts ?? emptyHostQueueCounts();
  return {
    hostId,
    queues: { high: { total: high.total, due: high.due_now }, normal: { total: normal.total, due: normal.due_now } },
    paused: pausedUntilMs !== undefined,
    pausedUntil: pausedUntilMs === undefined ? null : new Date(pausedUntilMs).toISOString(),
    drainEstimate: {
      high: estimateQueueDrain(high.total, completions.high, pausedUntilMs, now),
      normal: estimateQueueDrain(normal.total, completions.normal, pausedUntilMs, now),
    },
  };
}

/**
 * One host's queues as of `now`, through the same queue-store queries the
 * daemon's `/status` makes (counts per priority, paused hosts, recent
 * completions); STORE_UNAVAILABLE when the store cannot be reached.
 */
export async function readQueueStatus(store: QueueStore, hostId: number, now: number): Promise<QueueStatusView> {
  const [counts, paused, completions] = await Promise.all([store.counts(now, [hostId]), store.pausedHosts(now), store.recentCompletions(now, [hostId])]).catch((error: Error) => {
    throw storeUnavailable('queue store unavailable', error);
  });
  return queueStatusView(hostId, counts.get(hostId), paused.get(hostId), completions.get(hostId), now);
}
