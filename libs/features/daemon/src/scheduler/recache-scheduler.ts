import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { QueueActivity } from '@bpc/cache-operations';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EventEnvelope, newQueueEvent, newRenderRecorded, RECACHE_GAVE_UP, RECACHE_RETRY_SCHEDULED, RECACHE_SUCCEEDED, RecacheAttemptSubject, TOPICS, TopicName } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK, FailureStreakLog, LOGGER } from '@bpc/platform';
import { ClaimedEntry, QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { AfterFailure, PAGE_REFRESHER, PageRefresher, RefreshOutcome, renderFactOf } from '@bpc/renderer';
import type { RenderCapacity, SchedulerView } from '../get-status/scheduler-view';
import { SchedulerSwitch } from '../scheduler-control/scheduler-switch';
import { afterFailure, claimLeaseMs, internalQueueTarget, SchedulerLimits, triggerOf } from './scheduler-policy';
import { SchedulerMetrics } from './scheduler-metrics';

/** How long shutdown lets running attempts finish before aborting them. */
const SHUTDOWN_GRACE_MS = 10_000;

/** An entry pulled from the queue store into this daemon's internal queue. */
interface PulledEntry {
  readonly claim: ClaimedEntry;
  /** Attempts made by this daemon since the pull. */
  attempts: number;
  /** Not before this time (backoff between attempts). */
  readyAt: number;
  running: boolean;
}

/**
 * Drains the recache queues. Every tick (and whenever the internal queue runs
 * low) it pulls due entries — the store's claim takes `high` before `normal`
 * before `autorecache`, round-robin across hosts, skipping paused hosts
 * atomically, so a pause stops new pulls at once — into an internal queue of
 * about 2 × `recache.max_concurrent`. At most `max_concurrent` attempts run at
 * once, each bounded by `timeout_per_url`; a failed entry is retried inside
 * the daemon after 5 s, then 10 s, up to `max_retries` attempts (work past the
 * gate finishes even if its host is paused meanwhile). Outcomes are recorded
 * as events: the queue's `Recache*` (the queue projection and downstream
 * consumers), and one `RenderRecorded` per attempt (the render history).
 */
@Injectable()
export class RecacheScheduler implements OnApplicationBootstrap, OnApplicationShutdown, SchedulerView {
  private readonly limits: SchedulerLimits;
  private readonly pulled: PulledEntry[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private running = 0;
  private pulling?: Promise<void>;
  private stopping = false;
  private timer?: NodeJS.Timeout;
  private lastTickAt: Date | null = null;
  private readonly stopListening: () => void;
  private readonly claimFailures: FailureStreakLog;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(PAGE_REFRESHER) private readonly refresher: PageRefresher,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly schedulerSwitch: SchedulerSwitch,
    private readonly metrics: SchedulerMetrics,
    activity: QueueActivity,
  ) {
    this.stopListening = activity.onWorkQueued(() => void this.pull());
    this.claimFailures = new FailureStreakLog(logger, 'error', 'scheduler: pulling due entries failed', 'scheduler: pulling due entries works again', () => clock.now());
    this.limits = {
      maxConcurrent: config.recache.max_concurrent,
      maxRetries: config.internal_queue.max_retries,
      internalQueueMax: config.internal_queue.max_size,
      timeoutPerUrlMs: config.recache.timeout_per_url * 1000,
    };
  }

  onApplicationBootstrap(): void {
    if (!this.config.scheduler.enabled) return;
    this.timer = setInterval(() => this.tick(), this.config.scheduler.tick_ms);
    this.tick();
  }

  /**
   * Stops pulling (waiting for a pull in progress), lets running attempts
   * finish for a grace period and aborts the rest, then returns unstarted
   * entries to their queues.
   */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stopListening();
    clearInterval(this.timer);
    await this.pulling;
    const grace = setTimeout(() => this.shutdown.abort(), SHUTDOWN_GRACE_MS);
    await Promise.allSettled([...this.inFlight]);
    clearTimeout(grace);
    this.shutdown.abort();
    // Back to their queues with the attempts they really had (0 for never tried).
    const waiting = this.pulled.splice(0);
    await Promise.allSettled(waiting.map((entry) => this.store.retryLater(entry.claim, Math.max(entry.readyAt, this.clock.now()), entry.attempts)));
  }

  lastTick(): Date | null {
    return this.lastTickAt;
  }

  internalQueueSize(): number {
    return this.pulled.length;
  }

  renderCapacity(): RenderCapacity {
    return this.refresher.capacity();
  }

  tick(): void {
    this.lastTickAt = new Date(this.clock.now());
    void this.pull();
    this.dispatch();
  }

  private stopped(): boolean {
    return this.stopping;
  }

  /** One pull at a time; a failed pull is logged and the next tick tries again. */
  private pull(): Promise<void> {
    const room = internalQueueTarget(this.limits) - this.pulled.length;
    if (this.pulling || this.stopped() || !this.config.scheduler.enabled || this.schedulerSwitch.isPaused() || room <= 0) return Promise.resolve();
    this.pulling = this.claim(room).finally(() => (this.pulling = undefined));
    return this.pulling;
  }

  private async claim(room: number): Promise<void> {
    try {
      const now = this.clock.now();
      const claims = await this.store.claim({ now, limit: room, leaseMs: claimLeaseMs(this.limits) });
      for (const claim of claims) this.pulled.push({ claim, attempts: 0, readyAt: now, running: false });
      this.claimFailures.succeeded();
    } catch (error) {
      this.claimFailures.failed(error);
    }
    this.dispatch();
  }

  private dispatch(): void {
    const now = this.clock.now();
    while (this.running < this.limits.maxConcurrent && !this.stopped()) {
      const next = this.pulled.find((e) => !e.running && e.readyAt <= now);
      if (!next) return;
      this.start(next);
    }
  }

  /**
   * The slot is held only while the page is rendered or fetched
   * (`max_concurrent` bounds origin and browser work); the outcome is
   * recorded after the slot is free.
   */
  private start(entry: PulledEntry): void {
    this.running += 1;
    entry.running = true;
    const attempt: Promise<void> = this.run(entry)
      .catch((error) => this.logger.error({ err: error, url: entry.claim.url }, 'scheduler: attempt bookkeeping failed'))
      .finally(() => this.inFlight.delete(attempt));
    this.inFlight.add(attempt);
  }

  private async run(entry: PulledEntry): Promise<void> {
    const attemptNumber = entry.claim.attempt + entry.attempts + 1;
    // One controller per attempt, aborted by its timeout or by shutdown; both
    // links are removed afterwards (AbortSignal.any leaks on Node 20).
    const attempt = new AbortController();
    const abort = () => attempt.abort();
    const timeout = setTimeout(abort, this.limits.timeoutPerUrlMs);
    this.shutdown.signal.addEventListener('abort', abort, { once: true });
    let outcome: RefreshOutcome;
    try {
      outcome = await this.refresh(entry.claim, attempt.signal);
    } finally {
      clearTimeout(timeout);
      this.shutdown.signal.removeEventListener('abort', abort);
      entry.attempts += 1;
      this.running -= 1;
    }
    if (this.shutdown.signal.aborted && outcome.kind === 'failed') {
      // Shutdown cut it short: not counted, and the entry goes back to its queue.
      entry.attempts -= 1;
      entry.running = false;
      return;
    }
    await this.settle(entry, attemptNumber, outcome);
  }

  /**
   * Records the outcome. The entry leaves the internal queue (or gets its
   * next time) before the next dispatch, so no other worker can pick it up.
   * The attempt is counted once its outcome is in the store: a reader of the
   * metric then sees the entry settled (completed, given up or rescheduled).
   */
  private async settle(entry: PulledEntry, attemptNumber: number, outcome: RefreshOutcome): Promise<void> {
    try {
      await this.recordOutcome(entry, attemptNumber, outcome);
    } finally {
      this.metrics.attemptFinished(outcome.kind, outcome.durationMs);
    }
  }

  private async recordOutcome(entry: PulledEntry, attemptNumber: number, outcome: RefreshOutcome): Promise<void> {
    const { claim } = entry;
    const subject: RecacheAttemptSubject = {
      hostId: claim.hostId,
      url: claim.url,
      dimensionId: claim.dimensionId,
      priority: claim.priority,
      entryId: claim.entryId,
      attempt: attemptNumber,
      durationMs: outcome.durationMs,
    };
    const key = String(claim.hostId);
    if (outcome.kind !== 'failed') {
      this.remove(entry);
      this.refill();
      const result =
        outcome.kind === 'stored'
          ? { ...subject, outcome: outcome.cacheKind === 'render' ? ('rendered' as const) : ('fetched' as const), mode: outcome.cacheKind, statusCode: outcome.statusCode }
          : { ...subject, outcome: 'kept' as const, mode: outcome.mode };
      await Promise.all([this.record(TOPICS.queue, newQueueEvent(RECACHE_SUCCEEDED, result, key, this.clock.now())), this.recordRender(claim, attemptNumber, outcome, 'give-up')]);
      await this.store.complete(claim, this.clock.now());
      return;
    }
    const next = afterFailure(attemptNumber, this.limits, this.clock.now());
    if ('retryAt' in next) {
      entry.readyAt = next.retryAt;
      entry.running = false;
      this.refill();
      await Promise.all([
        this.record(TOPICS.queue, newQueueEvent(RECACHE_RETRY_SCHEDULED, { ...subject, reason: outcome.reason, retryAt: next.retryAt }, key, this.clock.now())),
        this.recordRender(claim, attemptNumber, outcome, 'retry'),
      ]);
      setTimeout(() => this.dispatch(), next.retryAt - this.clock.now()).unref();
      return;
    }
    this.remove(entry);
    this.refill();
    await Promise.all([this.record(TOPICS.queue, newQueueEvent(RECACHE_GAVE_UP, { ...subject, reason: outcome.reason }, key, this.clock.now())), this.recordRender(claim, attemptNumber, outcome, 'give-up')]);
    await this.store.giveUp(claim, this.clock.now());
  }

  /** The attempt in the render history (`RenderRecorded`), beside the queue's own event. */
  private recordRender(claim: ClaimedEntry, attempt: number, outcome: RefreshOutcome, after: AfterFailure): Promise<void> {
    const fact = renderFactOf(outcome, after, claim.mode);
    const payload = { hostId: claim.hostId, url: claim.url, dimensionId: claim.dimensionId, trigger: triggerOf(claim), attempt, entryId: claim.entryId, ...fact };
    return this.record(TOPICS.renders, newRenderRecorded(payload, this.clock.now()));
  }

  /** After a slot frees: start the next ready entry, and pull more when the internal queue runs low. */
  private refill(): void {
    this.dispatch();
    if (this.pulled.length <= this.limits.maxConcurrent) void this.pull();
  }

  private async refresh(claim: ClaimedEntry, signal: AbortSignal): Promise<RefreshOutcome> {
    const job = { hostId: claim.hostId, url: claim.url, dimensionId: claim.dimensionId, ...(claim.mode ? { mode: claim.mode } : {}) };
    try {
      return await this.refresher.refresh(job, { signal, purpose: 'recache' });
    } catch (error) {
      return { kind: 'failed', reason: `refresh failed: ${(error as Error).message}`, durationMs: 0 };
    }
  }

  /** Outcome events inform consumers; the store change that follows is what keeps the queue right, so a log outage is logged, not fatal. */
  private async record(topic: TopicName, event: EventEnvelope): Promise<void> {
    try {
      await this.log.append(topic, [event]);
    } catch (error) {
      this.logger.error({ err: error, type: event.type }, 'scheduler: outcome event not recorded');
    }
  }

  private remove(entry: PulledEntry): void {
    const index = this.pulled.indexOf(entry);
    if (index >= 0) this.pulled.splice(index, 1);
  }
}
