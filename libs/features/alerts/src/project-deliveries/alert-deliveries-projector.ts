import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { assertNever } from '@bpc/domain';
import { ALERT_DELIVERY_ATTEMPTED, ALERT_RAISED, asAlertEvent, TOPICS, UnknownEventError } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import { retryInBackground } from '@bpc/support';
import { ALERT_DELIVERIES_TABLE, type AlertDeliveryRow, BufferedExplorerWriter, checkpointOf, EXPLORER_STORE, ExplorerStore } from '@bpc/explorer-store';
import { FailureStreakLog, LOGGER, ReadinessRegistry } from '@bpc/platform';

export const ALERT_DELIVERIES_GROUP = 'alert-deliveries-projector';

/**
 * The delivery log from the alerts topic into ClickHouse (`alert_deliveries`),
 * where the public API reads it. The explorer projector's writer and
 * checkpoints: each partition resumes from the checkpoint written after its
 * rows, inserts carry deduplication tokens, the table folds a try recorded
 * twice. Runs in every projector whether or not a website has a webhook (the
 * log may hold deliveries of a website whose webhook was removed since).
 */
@Injectable()
export class AlertDeliveriesProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly stopping = new AbortController();
  private readonly writer: BufferedExplorerWriter;
  private subscription?: Subscription;
  private subscribing?: Promise<unknown>;
  /** Settles when the first attempt to subscribe has ended, either way. */
  private firstAttempt?: Promise<void>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: ReadinessRegistry,
  ) {
    this.writer = new BufferedExplorerWriter(store, logger, { maxRows: 1_000, maxDelayMs: 200 });
    readiness.add({ name: 'projection (alert deliveries)', check: async () => ({ lag: await this.lag() }) });
  }

  onApplicationBootstrap(): void {
    const failures = new FailureStreakLog(this.logger, 'error', `alert deliveries projector could not subscribe to ${TOPICS.alerts}; retrying`, `alert deliveries projector subscribed to ${TOPICS.alerts}`);
    const { firstAttempt, done } = retryInBackground(
      async () => {
        this.subscription = await this.log.subscribe({
          groupId: ALERT_DELIVERIES_GROUP,
          topics: [TOPICS.alerts],
          startAt: (topic, partition) => checkpointOf(this.store, `${topic}:${partition}`),
          handleBatch: (batch) => this.apply(batch),
          maxBatchSize: 1_000,
        });
        failures.succeeded();
      },
      this.stopping.signal,
      (error) => failures.failed(error),
    );
    this.subscribing = done;
    this.firstAttempt = firstAttempt;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.writer.stopRetrying();
    await this.subscribing;
    await this.subscription?.stop();
    await this.writer.close();
  }

  /** Tries in the log not yet in ClickHouse. Waits for the first attempt to subscribe; rejects while not subscribed (the lag is then unknown, not 0). */
  async lag(): Promise<number> {
    await this.firstAttempt;
    if (!this.subscription) throw new Error(`alert deliveries projector not subscribed to ${TOPICS.alerts}`);
    return (await this.subscription.lag()) + this.writer.buffered();
  }

  /** Writes what is buffered now (tests). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  private async apply(batch: LogBatch): Promise<void> {
    if (batch.records.length === 0) return;
    const rows: AlertDeliveryRow[] = [];
    for (const record of batch.records) {
      const event = asAlertEvent(record.event);
      if (!event) throw new UnknownEventError('alert deliveries projector', record.event, `${batch.topic}:${batch.partition}@${record.offset}`);
      switch (event.type) {
        case ALERT_RAISED:
          // Not a try: the log shows an alert once it has been tried.
          break;
        case ALERT_DELIVERY_ATTEMPTED: {
          const p = event.payload;
          rows.push({ website: p.website, alert_id: p.alertId, type: p.type, attempt: p.attempt, status: p.status, http_status: p.httpStatus, error: p.error, ts: new Date(event.occurredAt), event_id: event.id });
          break;
        }
        default:
          assertNever(event);
      }
    }
    const last = batch.records[batch.records.length - 1].offset;
    const tables = rows.length > 0 ? new Map([[ALERT_DELIVERIES_TABLE, rows]]) : new Map();
    await this.writer.add(`${batch.topic}:${batch.partition}`, batch.records[0].offset, (BigInt(last) + 1n).toString(), tables);
  }
}
