import { Inject, Injectable } from '@nestjs/common';
import type { CacheEntry } from '@bpc/cache-store';
import { CLOCK, FailureStreakLog, LOGGER } from '@bpc/platform';
import { Clock, HostCatalog } from '@bpc/domain';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { AUTORECACHE_SCHEDULED, newQueueEvent, TOPICS } from '@bpc/events';
import type { Logger } from 'pino';

/** Entry versions remembered as scheduled; the oldest are forgotten first (then scheduled once more at worst). */
const REMEMBERED_MAX = 200_000;
/**
 * A stale entry still served this long after it expired, and after it was
 * last scheduled, is scheduled again: its queue entry may be gone (given up
 * after failed attempts, or purged) while the cache entry stays the same, and
 * the page would be served stale for good. Counted from the expiry too, so
 * the recache due then (claimed, no longer in the queue to dedupe against)
 * is not doubled by the first stale hit.
 */
export const RESCHEDULE_STALE_AFTER_MS = 15 * 60_000;

/**
 * Gives every served cache entry an `autorecache` queue entry due at its
 * expiry, through `AutorecacheScheduled` on the queue topic (the queue
 * projection enqueues it, keeping an entry already queued for the key).
 *
 * One event per entry version, not per hit: the (host, URL, dimension,
 * expiry) seen are remembered in memory, so a page served a million times
 * between two renders is scheduled once by this process (once more every 15
 * minutes while it is served stale past that: see RESCHEDULE_STALE_AFTER_MS). URLs an
 * `ignore` URL rule matches are never queued. The host's pause
 * does not matter here: a paused host keeps collecting autorecache entries
 * and drains them when resumed. A failed append is forgotten, so the next hit
 * tries again.
 */
@Injectable()
export class ScheduleAutorecacheWhenPageServed {
  /** Entry version → when this process last scheduled it. */
  private readonly scheduled = new Map<string, number>();
  private readonly appendFailures: FailureStreakLog;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) logger: Logger,
    private readonly hosts: HostCatalog,
  ) {
    this.appendFailures = new FailureStreakLog(logger, 'warn', 'autorecache not scheduled: event log refused the append', 'autorecache scheduling works again', () => clock.now());
  }

  /** Never waits for the log and never throws. */
  served(entry: CacheEntry): void {
    // A body path names one entry version (every put writes a new file), so it stands for (host, URL, dimension, expiry).
    const key = entry.bodyPath;
    const now = this.clock.now();
    const scheduledAt = this.scheduled.get(key);
    if (scheduledAt !== undefined && now - Math.max(scheduledAt, entry.expiresAt) < RESCHEDULE_STALE_AFTER_MS) return;
    // Deleted first, so that a rescheduled version counts as the newest when the oldest are forgotten.
    this.scheduled.delete(key);
    this.scheduled.set(key, now);
    if (this.scheduled.size > REMEMBERED_MAX) this.scheduled.delete(this.scheduled.keys().next().value!);
    // A URL an `ignore` rule matches is never queued (checked once per entry version: it is remembered above).
    if (this.hosts.urlRule(entry.hostId, new URL(entry.url))?.action === 'ignore') return;
    const event = newQueueEvent(
      AUTORECACHE_SCHEDULED,
      { hostId: entry.hostId, url: entry.url, dimensionId: entry.dimensionId, dueAt: entry.expiresAt },
      String(entry.hostId),
      now,
    );
    this.log.append(TOPICS.queue, [event]).then(
      () => this.appendFailures.succeeded(),
      (error: unknown) => {
        this.scheduled.delete(key);
        this.appendFailures.failed(error, { url: entry.url });
      },
    );
  }
}
