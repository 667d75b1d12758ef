import { hostname } from 'node:os';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppError } from '@bpc/domain';
import { asIdentityEvent, knownEventsOf, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, LOGGER } from '@bpc/platform';
import { emptyIdentityState, evolveIdentity, IdentityState } from '../domain/identity-state';

const WAIT_DEADLINE_MS = 10_000;
const CATCH_UP_DEADLINE_MS = 30_000;

/**
 * Users, roles and tokens of the whole service, in memory in every process
 * that authenticates: the data is small, so each process replays the identity
 * topic from the beginning at startup and follows it. Each replica reads
 * under a group of its own (host name and public API port), so every replica
 * sees every event (a shared group would split the topic between replicas).
 */
@Injectable()
export class IdentityIndex implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly state: IdentityState = emptyIdentityState();
  private readonly applied = new Set<string>();
  private subscribing?: Promise<Subscription>;
  private caughtUp?: Promise<void>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Subscribes without holding up startup (joining a Kafka group takes
   * seconds); requests wait for `ready()` instead, so a valid token is never
   * refused because the index is still replaying.
   */
  onApplicationBootstrap(): void {
    this.subscribing = this.log.subscribe({
      // Unique per running replica (host + port) yet stable across restarts, so restarts do not pile up group offsets.
      groupId: `identity-index-${hostname()}-${this.config.listen.public_api}`,
      topics: [TOPICS.identity],
      startAt: async () => '0',
      handleBatch: async (batch) => this.apply(batch),
      maxBatchSize: 1000,
    });
    this.caughtUp = this.subscribing.then((subscription) => this.catchUp(subscription));
    // Surfaced through ready(); this only keeps an early failure from being an unhandled rejection.
    this.caughtUp.catch((error) => this.logger.error({ err: error }, 'identity index could not follow the log'));
  }

  async onApplicationShutdown(): Promise<void> {
    const subscription = await this.subscribing?.catch(() => undefined);
    await subscription?.stop();
  }

  /** Resolves once the index has replayed what the log held when the process started. */
  async ready(): Promise<void> {
    if (!this.caughtUp) throw new AppError('LOG_UNAVAILABLE', 'identity index not started');
    try {
      await this.caughtUp;
    } catch (error) {
      throw new AppError('LOG_UNAVAILABLE', `identity index unavailable: ${(error as Error).message}`);
    }
  }

  private async catchUp(subscription: Subscription): Promise<void> {
    const deadline = Date.now() + CATCH_UP_DEADLINE_MS;
    while ((await subscription.lag()) > 0) {
      if (Date.now() > deadline) throw new Error(`identity index did not replay the log within ${CATCH_UP_DEADLINE_MS} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Read-only view for the pure authorisation rules. */
  view(): IdentityState {
    return this.state;
  }

  /** Waits until this process has applied an event it (or another process) recorded, so a new token works at once. */
  async waitFor(eventId: string, deadlineMs = WAIT_DEADLINE_MS): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    let interval = 1;
    while (!this.applied.has(eventId)) {
      if (Date.now() >= deadline) throw new AppError('PROJECTION_TIMEOUT', `event ${eventId} is recorded but not yet applied by the identity index`);
      await new Promise((r) => setTimeout(r, interval));
      interval = Math.min(interval * 2, 20);
    }
  }

  /** All or nothing per batch: a batch holding an unknown event is refused whole, and retried by the log as it is. */
  private apply(batch: LogBatch): void {
    for (const event of knownEventsOf('identity index', batch, asIdentityEvent)) {
      // Once per event id: a producer's retry can store an event again later (a second grant after a revoke would restore the role).
      if (this.applied.has(event.id)) continue;
      evolveIdentity(this.state, event);
      this.applied.add(event.id);
    }
  }
}
