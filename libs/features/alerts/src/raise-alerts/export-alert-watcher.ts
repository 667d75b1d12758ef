import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { assertNever, type Clock, decideExportFinishedAlert } from '@bpc/domain';
import { asExportEvent, EXPORT_COMPLETED, EXPORT_EXPIRED, EXPORT_FAILED, EXPORT_STARTED, newAlertRaised, TOPICS, UnknownEventError } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import { retryInBackground } from '@bpc/support';
import { CLOCK, FailureStreakLog, LOGGER } from '@bpc/platform';
import { ALERT_TARGETS, type AlertTarget } from '../alert-targets.provider';

export const EXPORT_ALERT_GROUP = 'alert-export-watcher';
/**
 * Only exports that finished this recently are announced: the topic is read
 * from its beginning at every start (the website of an export is in its
 * ExportStarted, which may be long before), and a webhook configured today
 * must not receive every export of the past.
 */
export const EXPORT_ALERT_MAX_AGE_MS = 3600_000;

/**
 * Raises an `export_finished` alert when an export of a website with a
 * webhook (and `export_finished` on) completes or fails. Alert ids are the
 * export's, so reading the topic again after a restart raises the same
 * alerts, which the deliverer has already delivered.
 */
@Injectable()
export class ExportAlertWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly started = new Map<string, { website: string; explorerKey: string; filename: string }>();
  private readonly targets: ReadonlyMap<string, AlertTarget>;
  private readonly stopping = new AbortController();
  private subscription?: Subscription;
  private subscribing?: Promise<unknown>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(ALERT_TARGETS) targets: readonly AlertTarget[],
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.targets = new Map(targets.filter((t) => t.exportFinished).map((t) => [t.website, t]));
  }

  onApplicationBootstrap(): void {
    if (this.targets.size === 0) return;
    const failures = new FailureStreakLog(this.logger, 'error', `export alerts could not subscribe to ${TOPICS.exports}; retrying`, `export alerts subscribed to ${TOPICS.exports}`);
    this.subscribing = retryInBackground(
      async () => {
        this.subscription = await this.log.subscribe({ groupId: EXPORT_ALERT_GROUP, topics: [TOPICS.exports], startAt: async () => '0', handleBatch: (batch) => this.apply(batch), maxBatchSize: 1_000 });
        failures.succeeded();
      },
      this.stopping.signal,
      (error) => failures.failed(error),
    ).done;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.subscribing;
    await this.subscription?.stop();
  }

  private async apply(batch: LogBatch): Promise<void> {
    const now = this.clock.now();
    const raised = [];
    for (const record of batch.records) {
      const event = asExportEvent(record.event);
      if (!event) throw new UnknownEventError('export alerts', record.event, `${batch.topic}:${batch.partition}@${record.offset}`);
      const key = `${event.payload.accountId}:${event.payload.exportId}`;
      switch (event.type) {
        case EXPORT_STARTED:
          if (this.targets.has(event.payload.websiteId)) this.started.set(key, { website: event.payload.websiteId, explorerKey: event.payload.explorerKey, filename: event.payload.filename });
          break;
        case EXPORT_COMPLETED:
        case EXPORT_FAILED: {
          const started = this.started.get(key);
          this.started.delete(key);
          if (!started || now - Date.parse(event.occurredAt) > EXPORT_ALERT_MAX_AGE_MS) break;
          const alert = decideExportFinishedAlert({
            exportId: event.payload.exportId,
            ...started,
            finishedAt: event.occurredAt,
            ...(event.type === EXPORT_COMPLETED
              ? { status: 'completed' as const, rowCount: event.payload.rowCount, sizeBytes: event.payload.sizeBytes }
              : { status: 'failed' as const, error: event.payload.errorMessage || event.payload.error }),
          });
          raised.push(newAlertRaised({ alertId: alert.id, type: alert.type, website: alert.website, alertOccurredAt: alert.occurredAt, data: alert.data }, now));
          break;
        }
        case EXPORT_EXPIRED:
          this.started.delete(key);
          break;
        default:
          assertNever(event);
      }
    }
    // Before the batch's offset is committed: a failed append has the log hand the batch over again.
    if (raised.length > 0) await this.log.append(TOPICS.alerts, raised);
  }
}
