import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import { retryInBackground } from '@bpc/support';
import { BufferedExplorerWriter, checkpointOf, EXPLORER_STORE, ExplorerStore, type Row } from '@bpc/explorer-store';
import { FailureStreakLog, LOGGER, ReadinessRegistry } from '@bpc/platform';
import { mayCarryReceipt, receiptRows } from './receipt-projection';

export const RECEIPT_PROJECTOR_GROUP = 'receipt-projector';
/**
 * Receipts are read right after the recache answers (the dashboard follows
 * one at once), and they are few rows: written within half a second.
 */
export const RECEIPT_FLUSH = { maxRows: 100_000, maxDelayMs: 500 } as const;

/**
 * Receipted recache requests and queue purges from the queue topic into
 * ClickHouse (`recache_receipts`, `recache_purges`), beside the render
 * history they are read with. Same
 * exactly-once scheme as the explorer projector: its own checkpoint per
 * partition in ClickHouse, written after the rows it covers, insert tokens
 * from log positions, a ReplacingMergeTree table. A failed write holds up
 * the partition (retried); nothing is skipped. A log that cannot be
 * subscribed yet is tried again in the background; readiness says so.
 */
@Injectable()
export class ReceiptProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;
  private failure?: Error;
  private readonly stopping = new AbortController();
  private subscribing?: Promise<unknown>;
  private firstAttempt?: Promise<void>;
  private readonly writer: BufferedExplorerWriter;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: ReadinessRegistry,
  ) {
    this.writer = new BufferedExplorerWriter(store, logger, RECEIPT_FLUSH);
    readiness.add({ name: 'projection (recache receipts)', check: async () => ({ lag: await this.lag() }) });
  }

  onApplicationBootstrap(): void {
    const failures = new FailureStreakLog(this.logger, 'error', `receipt projector could not subscribe to ${TOPICS.queue}; retrying until it can`, `receipt projector subscribed to ${TOPICS.queue}`);
    const { firstAttempt, done } = retryInBackground(
      async () => {
        this.subscription = await this.subscribe();
        this.failure = undefined;
        failures.succeeded();
      },
      this.stopping.signal,
      (error) => {
        this.failure = error instanceof Error ? error : new Error(String(error));
        failures.failed(error);
      },
    );
    this.firstAttempt = firstAttempt;
    this.subscribing = done;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    this.writer.stopRetrying();
    await this.subscribing;
    await this.subscription?.stop();
    await this.writer.close();
  }

  /** Writes what is buffered now (tests). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Receipted requests appended but not yet in ClickHouse; rejects while not subscribed. */
  async lag(): Promise<number> {
    if (!this.firstAttempt) throw new Error('receipt projector not started');
    await this.firstAttempt;
    if (!this.subscription) throw new Error(`receipt projector not subscribed to ${TOPICS.queue} (${this.failure?.message ?? 'subscribing'})`);
    return (await this.subscription.lag()) + this.writer.buffered();
  }

  private subscribe(): Promise<Subscription> {
    return this.log.subscribe({
      groupId: RECEIPT_PROJECTOR_GROUP,
      topics: [TOPICS.queue],
      startAt: (topic, partition) => checkpointOf(this.store, `${topic}:${partition}`),
      handleBatch: (batch) => this.apply(batch),
      maxBatchSize: 5_000,
    });
  }

  private async apply(batch: LogBatch): Promise<void> {
    if (batch.records.length === 0) return;
    const byTable = new Map<string, Row[]>();
    for (const record of batch.records) {
      const found = mayCarryReceipt(record.payload) ? receiptRows(record.event) : undefined;
      if (found) byTable.set(found.table, [...(byTable.get(found.table) ?? []), ...found.rows]);
    }
    const last = batch.records[batch.records.length - 1].offset;
    // A batch without receipts still moves the checkpoint (an empty table map), so a restart does not read it again.
    await this.writer.add(`${batch.topic}:${batch.partition}`, batch.records[0].offset, (BigInt(last) + 1n).toString(), byTable);
  }
}
