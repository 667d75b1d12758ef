import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import type { Logger } from 'pino';
import { type Alert, assertNever, type Clock, deliveryStatus, FIRST_TRY_WITHIN_MS, nextAttemptAt } from '@bpc/domain';
import { ALERT_DELIVERY_ATTEMPTED, ALERT_RAISED, AlertEvent, asAlertEvent, newAlertDeliveryAttempted, TOPICS, UnknownEventError } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import { retryInBackground } from '@bpc/support';
import { CLOCK, FailureStreakLog, LOGGER, METRICS_REGISTRY } from '@bpc/platform';
import { ALERT_TARGETS, type AlertTarget } from '../alert-targets.provider';
import { WebhookClient } from './webhook-client';

/** The one consumer group that delivers: each website's alerts (one partition) are delivered by one replica at a time. */
export const ALERT_DELIVERER_GROUP = 'alert-deliverer';
/** How often due deliveries are looked for. */
export const DELIVERY_TICK_MS = 1_000;
/** Deliveries in flight at once, over every website. */
const MAX_IN_FLIGHT = 8;
/** Finished alerts are remembered this long after they were raised, so the same alert raised again (a later evaluation in its window, a replay) is not sent twice. */
const REMEMBER_FINISHED_MS = 2 * 24 * 3600_000;

interface TrackedAlert {
  readonly alert: Alert;
  /** The alerts topic partition it was read from: delivered only while this replica holds it. */
  readonly partition: number;
  readonly raisedAt: number;
  /** Tries made so far. */
  attempts: number;
  state: 'due' | 'delivered' | 'failed';
  dueAt: number;
  inFlight: boolean;
}

/**
 * Delivers raised alerts to their website's webhook, each once, with retries.
 *
 * The state (which alerts are delivered, failed, or due again when) is the
 * alerts topic itself: the group reads its partitions from the beginning at
 * every assignment (the topic is small), so a restarted or newly assigned
 * replica knows every try made before, and only delivers once it has caught
 * up. It acts only on the partitions the group gives it now (`assigned`):
 * after a rebalance, a retry that was due here is the new holder's. Each try
 * is appended as an AlertDeliveryAttempted event before the next one is due. An alert raised twice (same id: a later evaluation, another
 * projector replica) is delivered once. At least once: a crash between a
 * POST and its event sends that try again, with the same `X-BPC-Alert-Id`.
 */
@Injectable()
export class AlertDeliverer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly alerts = new Map<string, TrackedAlert>();
  /** Partitions of the alerts topic this replica holds now (the group's current assignment). */
  private held = new Set<number>();
  private readonly targets: ReadonlyMap<string, AlertTarget>;
  private readonly client = new WebhookClient();
  private readonly stopping = new AbortController();
  private subscription?: Subscription;
  private subscribing?: Promise<unknown>;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private inFlight = new Set<Promise<void>>();
  private readonly tried?: Counter<'type' | 'status'>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(ALERT_TARGETS) targets: readonly AlertTarget[],
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    // Present when the app serves /metrics (MetricsModule).
    @Optional() @Inject(METRICS_REGISTRY) registry?: Registry,
  ) {
    this.targets = new Map(targets.map((t) => [t.website, t]));
    if (registry) {
      this.tried = new Counter({ name: 'bpc_alert_deliveries_total', help: 'Tries to POST an alert to a website webhook, by alert type and outcome (delivered, retrying, failed).', labelNames: ['type', 'status'], registers: [registry] });
    }
  }

  onApplicationBootstrap(): void {
    if (this.targets.size === 0) return;
    const failures = new FailureStreakLog(this.logger, 'error', `alert deliverer could not subscribe to ${TOPICS.alerts}; retrying`, `alert deliverer subscribed to ${TOPICS.alerts}`);
    this.subscribing = retryInBackground(
      async () => {
        this.subscription = await this.log.subscribe({
          groupId: ALERT_DELIVERER_GROUP,
          topics: [TOPICS.alerts],
          assigned: (partitions) => this.hold(partitions.map((p) => p.partition)),
          startAt: async () => '0',
          handleBatch: async (batch) => this.apply(batch),
          maxBatchSize: 1_000,
        });
        failures.succeeded();
      },
      this.stopping.signal,
      (error) => failures.failed(error),
    ).done;
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => (this.ticking = undefined));
    }, DELIVERY_TICK_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    await this.subscribing;
    await this.subscription?.stop();
    await this.ticking;
    await Promise.all(this.inFlight);
    await this.client.close();
  }

  /** Alert events not yet read; rejects until the group has been joined (then deliveries can start). */
  async lag(): Promise<number> {
    if (!this.subscription) throw new Error(`alert deliverer not subscribed to ${TOPICS.alerts}`);
    return this.subscription.lag();
  }

  /** Delivers what is due now; the interval calls it, tests may too. Waits for the tries it started. */
  async tick(): Promise<void> {
    if (!this.subscription) return;
    const now = this.clock.now();
    this.forgetOld(now);
    const due = [...this.alerts.values()].filter((a) => this.isDue(a, now)).sort((a, b) => a.dueAt - b.dueAt);
    // Only once caught up: a try recorded further on (by this replica before a restart, or by another) may make it not due. Asked only when something is due (on Kafka it is a broker round trip).
    if (due.length === 0 || (await this.subscription.lag()) > 0) return;
    // Again after the wait: records read meanwhile, or another tick, may have changed them.
    const stillDue = due.filter((a) => this.isDue(a, now));
    const started = stillDue.slice(0, Math.max(0, MAX_IN_FLIGHT - this.inFlight.size)).map((tracked) => this.startTry(tracked));
    await Promise.all(started);
  }

  private isDue(tracked: TrackedAlert, now: number): boolean {
    if (tracked.state !== 'due' || tracked.inFlight || tracked.dueAt > now) return false;
    if (!this.held.has(tracked.partition) || !this.targets.has(tracked.alert.website)) return false;
    return tracked.attempts > 0 || now - tracked.raisedAt <= FIRST_TRY_WITHIN_MS;
  }

  /**
   * A rebalance moved partitions: alerts of a partition another replica holds
   * now are its to deliver (it rebuilds them from the topic); this replica
   * forgets them, and reads them again from the beginning if it gets the
   * partition back.
   */
  private hold(partitions: readonly number[]): void {
    this.held = new Set(partitions);
    for (const [id, tracked] of this.alerts) if (!this.held.has(tracked.partition)) this.alerts.delete(id);
  }

  private startTry(tracked: TrackedAlert): Promise<void> {
    tracked.inFlight = true;
    const attempt = this.deliver(tracked)
      .catch((error: unknown) => this.logger.error({ err: error, alertId: tracked.alert.id }, 'alert delivery could not be recorded; tried again'))
      .finally(() => {
        tracked.inFlight = false;
        this.inFlight.delete(attempt);
      });
    this.inFlight.add(attempt);
    return attempt;
  }

  private async deliver(tracked: TrackedAlert): Promise<void> {
    const { alert } = tracked;
    const target = this.targets.get(alert.website);
    if (!target) return;
    const attempt = tracked.attempts + 1;
    const answer = await this.client.post(target, alert, this.clock.now());
    const endedAt = this.clock.now();
    const status = deliveryStatus(answer, attempt);
    const next = nextAttemptAt(status, attempt, endedAt);
    const event = newAlertDeliveryAttempted(
      {
        alertId: alert.id,
        type: alert.type,
        website: alert.website,
        attempt,
        status,
        httpStatus: 'httpStatus' in answer ? answer.httpStatus : null,
        error: 'httpStatus' in answer ? (status === 'delivered' ? '' : `HTTP ${answer.httpStatus}`) : answer.error,
        ...(next !== undefined && { nextAttemptAt: new Date(next).toISOString() }),
      },
      endedAt,
    );
    // Recorded before the next try can be due: a failed append leaves the alert due, and this try is made again.
    await this.log.append(TOPICS.alerts, [event]);
    this.record(event);
    this.tried?.inc({ type: alert.type, status });
    if (status !== 'delivered') this.logger.warn({ alertId: alert.id, website: alert.website, attempt, status, error: event.payload.error, ...('detail' in answer && { detail: answer.detail }) }, 'alert webhook delivery failed');
  }

  private apply(batch: LogBatch): void {
    for (const record of batch.records) {
      const event = asAlertEvent(record.event);
      if (!event) throw new UnknownEventError('alert deliverer', record.event, `${batch.topic}:${batch.partition}@${record.offset}`);
      this.record(event, batch.partition);
    }
  }

  /** Idempotent: an event read again (replay, its own append read back) changes nothing. */
  private record(event: AlertEvent, partition?: number): void {
    switch (event.type) {
      case ALERT_RAISED: {
        const { alertId, type, website, alertOccurredAt, data } = event.payload;
        if (this.alerts.has(alertId) || partition === undefined) return;
        const raisedAt = Date.parse(event.occurredAt);
        this.alerts.set(alertId, { alert: { id: alertId, type, website, occurredAt: alertOccurredAt, data }, partition, raisedAt, attempts: 0, state: 'due', dueAt: raisedAt, inFlight: false });
        return;
      }
      case ALERT_DELIVERY_ATTEMPTED: {
        const tracked = this.alerts.get(event.payload.alertId);
        if (!tracked || event.payload.attempt < tracked.attempts) return;
        tracked.attempts = event.payload.attempt;
        tracked.state = event.payload.status === 'retrying' ? 'due' : event.payload.status;
        tracked.dueAt = event.payload.nextAttemptAt ? Date.parse(event.payload.nextAttemptAt) : Number.POSITIVE_INFINITY;
        return;
      }
      default:
        assertNever(event);
    }
  }

  private forgetOld(now: number): void {
    for (const [id, tracked] of this.alerts) {
      if (tracked.state !== 'due' && now - tracked.raisedAt > REMEMBER_FINISHED_MS) this.alerts.delete(id);
    }
  }
}
