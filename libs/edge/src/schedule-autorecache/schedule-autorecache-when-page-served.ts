import { Inject, Injectable } from '@nestjs/common';
import type { CacheEntry } from '@bpc/cache-store';
import { CLOCK, LOGGER } from '@bpc/platform';
import type { Clock } from '@bpc/domain';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { AUTORECACHE_SCHEDULED, newQueueEvent, TOPICS } from '@bpc/events';
import type { Logger } from 'pino';

/** Entry versions remembered as scheduled; the oldest are forgotten first (then scheduled once more at worst). */
const REMEMBERED_MAX = 200_000;

/**
 * Gives every served cache entry an `autorecache` queue entry due at its
 * expiry, through `AutorecacheScheduled` on the queue topic (the queue
 * projection enqueues it, keeping an entry already queued for the key).
 *
 * One event per entry version, not per hit: the (host, URL, dimension,
 * expiry) seen are remembered in memory, so a page served a million times
 * between two renders is scheduled once by this process. The host's pause
 * does not matter here: a paused host keeps collecting autorecache entries
 * and drains them when resumed. A failed append is forgotten, so the next hit
 * tries again.
 */
@Injectable()
export class ScheduleAutorecacheWhenPageServed {
  private readonly scheduled = new Set<string>();

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Never waits for the log and never throws. */
  served(entry: CacheEntry): void {
    // A body path names one entry version (every put writes a new file), so it stands for (host, URL, dimension, expiry).
    const key = entry.bodyPath;
    if (this.scheduled.has(key)) return;
    this.scheduled.add(key);
    if (this.scheduled.size > REMEMBERED_MAX) this.scheduled.delete(this.scheduled.values().next().value!);
    const event = newQueueEvent(
      AUTORECACHE_SCHEDULED,
      { hostId: entry.hostId, url: entry.url, dimensionId: entry.dimensionId, dueAt: entry.expiresAt },
      String(entry.hostId),
      this.clock.now(),
    );
    this.log.append(TOPICS.queue, [event]).catch((error: unknown) => {
      this.scheduled.delete(key);
      this.logger.warn({ err: error, url: entry.url }, 'autorecache not scheduled: event log refused the append');
    });
  }
}
