import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock } from '@bpc/domain';
import { asExportEvent, envelope, EXPORT_COMPLETED, EXPORT_EXPIRED, EXPORT_FAILED, EXPORT_STARTED, ExportEvent, ExportStarted, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK, LOGGER } from '@bpc/platform';
import { emptyExportsState, evolveExports, ExportState, ExportsState } from '../domain/export-record';

const CATCH_UP_DEADLINE_MS = 30_000;

export type NewExport = Omit<ExportStarted['payload'], 'exportId' | 'fileId'>;

/**
 * Every export record and account slot, in memory, rebuilt at startup by
 * replaying `bpc.exports.v1` from the beginning.
 *
 * Standalone mode: this process is the only writer of the topic, so after
 * the replay it applies its own events as it appends them and stops reading.
 * Claims are atomic because they are decided synchronously on the event loop
 * (check slot, take it, apply the start) before the first await; a failed
 * append gives the claim back.
 */
@Injectable()
export class ExportIndex {
  private readonly state: ExportsState = emptyExportsState();
  private replayed?: Promise<void>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Replays the topic once; later calls share the first replay. */
  ready(): Promise<void> {
    this.replayed ??= this.replay();
    return this.replayed;
  }

  get(exportId: number): ExportState | undefined {
    return this.state.byId.get(exportId);
  }

  all(): IterableIterator<ExportState> {
    return this.state.byId.values();
  }

  /** The running or completed export asking the same question, if any. */
  sameQuestion(questionHash: string): ExportState | undefined {
    for (const record of this.state.byId.values()) if (record.questionHash === questionHash && record.status !== 'failed') return record;
    return undefined;
  }

  slotHolder(accountId: string): number | undefined {
    return this.state.slots.get(accountId);
  }

  /**
   * Takes the account's slot and records the start. Synchronous up to the
   * append: callers check `sameQuestion` and `slotHolder` in the same tick.
   */
  async start(fields: NewExport): Promise<ExportState> {
    if (this.state.slots.has(fields.accountId)) throw new Error('export slot taken: check slotHolder first');
    const event = this.event(EXPORT_STARTED, { ...fields, exportId: this.state.lastId + 1, fileId: randomUUID() }, fields.accountId);
    evolveExports(this.state, event);
    const record = this.state.byId.get(event.payload.exportId)!;
    try {
      await this.log.append(TOPICS.exports, [event]);
    } catch (error) {
      this.state.byId.delete(record.exportId);
      this.state.slots.delete(record.accountId);
      throw new AppError('LOG_UNAVAILABLE', `the export could not be recorded: ${(error as Error).message}`);
    }
    return record;
  }

  async complete(record: ExportState, rowCount: number, sizeBytes: number): Promise<void> {
    await this.record(this.event(EXPORT_COMPLETED, { exportId: record.exportId, accountId: record.accountId, rowCount, sizeBytes }, record.accountId));
  }

  async fail(record: ExportState, error: string, errorMessage: string): Promise<void> {
    await this.record(this.event(EXPORT_FAILED, { exportId: record.exportId, accountId: record.accountId, error, errorMessage }, record.accountId));
  }

  async expire(record: ExportState): Promise<void> {
    await this.record(this.event(EXPORT_EXPIRED, { exportId: record.exportId, accountId: record.accountId }, record.accountId));
  }

  /** Appended first, applied after: the record changes only once the log holds the change. */
  private async record(event: ExportEvent): Promise<void> {
    await this.log.append(TOPICS.exports, [event]);
    evolveExports(this.state, event);
  }

  private event<T extends ExportEvent['type']>(type: T, payload: Extract<ExportEvent, { type: T }>['payload'], accountId: string): Extract<ExportEvent, { type: T }> {
    return envelope(type, 1, payload, { id: randomUUID(), occurredAt: new Date(this.clock.now()), key: accountId }) as unknown as Extract<ExportEvent, { type: T }>;
  }

  private async replay(): Promise<void> {
    const subscription = await this.log.subscribe({
      groupId: `exports-index-${hostname()}-${this.config.listen.public_api}`,
      topics: [TOPICS.exports],
      startAt: async () => '0',
      handleBatch: async (batch) => {
        for (const { event: raw } of batch.records) {
          const event = asExportEvent(raw);
          if (event) evolveExports(this.state, event);
          else this.logger.warn({ type: raw.type, version: raw.version }, 'export index: unknown event skipped');
        }
      },
      maxBatchSize: 1000,
    });
    const deadline = Date.now() + CATCH_UP_DEADLINE_MS;
    try {
      while ((await subscription.lag()) > 0) {
        if (Date.now() > deadline) throw new Error(`export index did not replay the log within ${CATCH_UP_DEADLINE_MS} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await subscription.stop();
    }
  }
}
