import { AUTORECACHE_SCHEDULED, AutorecacheScheduled, autorecacheScheduledSchema } from './autorecache-scheduled.event';
import { CACHE_INVALIDATED, CacheInvalidated, cacheInvalidatedSchema } from './cache-invalidated.event';
import {
  HOST_RECACHE_PAUSED,
  HOST_RECACHE_RESUMED,
  HostRecachePaused,
  hostRecachePausedSchema,
  HostRecacheResumed,
  hostRecacheResumedSchema,
} from './host-recache-paused.event';
import { QUEUE_PURGED, QueuePurged, queuePurgedSchema } from './queue-purged.event';
import {
  RECACHE_GAVE_UP,
  RECACHE_RETRY_SCHEDULED,
  RECACHE_SUCCEEDED,
  RecacheGaveUp,
  recacheGaveUpSchema,
  RecacheRetryScheduled,
  recacheRetryScheduledSchema,
  RecacheSucceeded,
  recacheSucceededSchema,
} from './recache-attempt.event';
import { RECACHE_REQUESTED, RecacheRequested, recacheRequestedSchema } from './recache-requested.event';
import { SCHEDULER_PAUSED, SCHEDULER_RESUMED, SchedulerPaused, SchedulerResumed, schedulerToggledSchema } from './scheduler-toggled.event';
import type { EventDefinition } from '../event-definition';
import { TOPICS } from '../topics';

/**
 * Everything the daemon records, on the queue topic keyed by host id (the
 * scheduler toggles are keyed `scheduler`), so each host's history is in order.
 */
export type QueueEvent =
  | RecacheRequested
  | QueuePurged
  | HostRecachePaused
  | HostRecacheResumed
  | CacheInvalidated
  | SchedulerPaused
  | SchedulerResumed
  | RecacheSucceeded
  | RecacheRetryScheduled
  | RecacheGaveUp
  | AutorecacheScheduled;

const byHost = 'host id (decimal string)';

export const QUEUE_EVENT_CATALOG: Readonly<Record<QueueEvent['type'], EventDefinition>> = {
  [RECACHE_REQUESTED]: { type: RECACHE_REQUESTED, version: 1, topic: TOPICS.queue, key: byHost, description: 'URLs were queued for recache on a host, for the listed dimensions, at a priority.', payload: recacheRequestedSchema },
  [QUEUE_PURGED]: { type: QUEUE_PURGED, version: 1, topic: TOPICS.queue, key: byHost, description: 'Queued entries of the listed priorities were removed from a host.', payload: queuePurgedSchema },
  [HOST_RECACHE_PAUSED]: { type: HOST_RECACHE_PAUSED, version: 1, topic: TOPICS.queue, key: byHost, description: 'Recache draining of a host paused until expiresAt.', payload: hostRecachePausedSchema },
  [HOST_RECACHE_RESUMED]: { type: HOST_RECACHE_RESUMED, version: 1, topic: TOPICS.queue, key: byHost, description: 'Recache draining of a host resumed.', payload: hostRecacheResumedSchema },
  [CACHE_INVALIDATED]: { type: CACHE_INVALIDATED, version: 1, topic: TOPICS.queue, key: byHost, description: 'Cache entries of URLs × dimensions on a host were dropped.', payload: cacheInvalidatedSchema },
  [SCHEDULER_PAUSED]: { type: SCHEDULER_PAUSED, version: 1, topic: TOPICS.queue, key: '"scheduler"', description: 'A daemon scheduler stopped pulling work.', payload: schedulerToggledSchema },
  [SCHEDULER_RESUMED]: { type: SCHEDULER_RESUMED, version: 1, topic: TOPICS.queue, key: '"scheduler"', description: 'A daemon scheduler restarted pulling work.', payload: schedulerToggledSchema },
  [RECACHE_SUCCEEDED]: { type: RECACHE_SUCCEEDED, version: 1, topic: TOPICS.queue, key: byHost, description: 'A recache attempt stored a new cache entry (or render-wins kept a fresh render).', payload: recacheSucceededSchema },
  [RECACHE_RETRY_SCHEDULED]: { type: RECACHE_RETRY_SCHEDULED, version: 1, topic: TOPICS.queue, key: byHost, description: 'A recache attempt failed; the entry is retried at retryAt.', payload: recacheRetryScheduledSchema },
  [RECACHE_GAVE_UP]: { type: RECACHE_GAVE_UP, version: 1, topic: TOPICS.queue, key: byHost, description: 'A recache entry failed its last allowed attempt and was dropped.', payload: recacheGaveUpSchema },
  [AUTORECACHE_SCHEDULED]: { type: AUTORECACHE_SCHEDULED, version: 1, topic: TOPICS.queue, key: byHost, description: 'A served cache entry was queued at the autorecache priority, due at its expiry (kept when already queued).', payload: autorecacheScheduledSchema },
};
