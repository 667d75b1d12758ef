import { hostname } from 'node:os';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppError } from '@bpc/domain';
import { asIdentityEvent, IdentityEvent, knownEventsOf, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import { caughtUpWithin, retryInBackground } from '@bpc/support';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, FailureStreakLog, LOGGER, ReadinessRegistry } from '@bpc/platform';
import { emptyIdentityState, evolveIdentityAll, IdentityState } from '../domain/identity-state';

const WAIT_DEADLINE_MS = 10_000;
const CATCH_UP_DEADLINE_MS = 30_000;

/**
 * Users, roles, tokens and dashboard sessions of the whole service, in memory
 * in every process that authenticates: the data is small (expired sessions
 * and links are forgotten), so each process replays the identity topic from
 * the beginning at startup and follows it. Each replica reads
 * under a group of its own (host name and public API port), so every replica
 * sees every event (a shared group would split the topic between replicas).
 *
 * Readiness reports the index down until it has caught up, so a replica
 * joins the load balancer once it can authenticate. A log that cannot be
 * followed (Kafka unreachable at startup, a replay slower than
 * CATCH_UP_DEADLINE_MS) is tried again with backoff until the index has
 * caught up or the app stops; meanwhile `ready()` refuses with LOG_UNAVAILABLE.
 */
@Injectable()
export class IdentityIndex implements OnApplicationBootstrap, OnApplicationShutdown {
  private state: IdentityState = emptyIdentityState();
  private readonly applied = new Set<string>();
  private readonly stopping = new AbortController();
  private subscription?: Subscription;
  private following?: Promise<void>;
  /** Settles when the first attempt to catch up has ended, either way (requests during a normal startup wait for it). */
  private firstAttempt?: Promise<void>;
  private caughtUp = false;
  /** Why the index is not caught up, once an attempt failed; cleared when it catches up. */
  private outage?: Error;
  private readonly followFailures: FailureStreakLog;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    readiness: ReadinessRegistry,
  ) {
    readiness.add({ name: 'identity index', check: async () => this.assertCaughtUp() });
    this.followFailures = new FailureStreakLog(logger, 'error', 'identity index cannot follow the log (requests answer 503 LOG_UNAVAILABLE until it does); retrying', 'identity index caught up with the log again');
  }

  /**
   * Subscribes without holding up startup (joining a Kafka group takes
   * seconds); requests wait for `ready()` instead, so a valid token is never
   * refused because the index is still replaying.
   */
  onApplicationBootstrap(): void {
    const following = retryInBackground(() => this.follow(), this.stopping.signal, (error) => {
      this.outage = error instanceof Error ? error : new Error(String(error));
      this.followFailures.failed(error);
    });
    this.firstAttempt = following.firstAttempt;
    this.following = following.done;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.following;
    await this.subscription?.stop();
  }

  /** Resolves once the index has replayed what the log held when it could first be followed; LOG_UNAVAILABLE while it cannot. */
  async ready(): Promise<void> {
    if (!this.firstAttempt) throw new AppError('LOG_UNAVAILABLE', 'identity index not started');
    if (!this.caughtUp && !this.outage) await this.firstAttempt;
    this.assertCaughtUp();
  }

  /** The current state for the pure authorisation rules (a value: a later event makes a new one). */
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

  private assertCaughtUp(): void {
    if (this.caughtUp) return;
    throw new AppError('LOG_UNAVAILABLE', this.outage ? `identity index unavailable: ${this.outage.message}` : 'identity index is replaying the log');
  }

  /** One attempt: subscribes (once it succeeds, the subscription rides out later outages itself) and waits to catch up; retried until it has. */
  private async follow(): Promise<void> {
    this.subscription ??= await this.subscribe();
    if (!(await caughtUpWithin(() => this.subscription!.lag(), CATCH_UP_DEADLINE_MS, this.stopping.signal))) {
      throw new Error(`identity index did not replay the log within ${CATCH_UP_DEADLINE_MS} ms`);
    }
    if (this.stopping.signal.aborted) return;
    // Here, not after the retries: requests waiting for the first attempt look as soon as it ends.
    this.caughtUp = true;
    this.outage = undefined;
    this.followFailures.succeeded();
  }

  private subscribe(): Promise<Subscription> {
    return this.log.subscribe({
      // Unique per running replica (host + port) yet stable across restarts, so restarts do not pile up group offsets.
      groupId: `identity-index-${hostname()}-${this.config.listen.public_api}`,
      topics: [TOPICS.identity],
      startAt: async () => '0',
      handleBatch: async (batch) => this.apply(batch),
      maxBatchSize: 1000,
    });
  }

  /** All or nothing per batch: a batch holding an unknown event is refused whole, and retried by the log as it is. */
  private apply(batch: LogBatch): void {
    const fresh: IdentityEvent[] = [];
    for (const event of knownEventsOf('identity index', batch, asIdentityEvent)) {
      // Once per event id: a producer's retry can store an event again later (a second grant after a revoke would restore the role).
      if (this.applied.has(event.id)) continue;
      this.applied.add(event.id);
      fresh.push(event);
    }
    this.state = evolveIdentityAll(this.state, fresh);
  }
}
