import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock } from '@bpc/domain';
import { asExportEvent, envelope, EXPORT_COMPLETED, EXPORT_EXPIRED, EXPORT_FAILED, EXPORT_STARTED, ExportEvent, ExportStarted, knownEventsOf, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog, Subscription } from '@bpc/event-log';
import { caughtUpWithin } from '@bpc/support';
import { EXPORT_SLOTS, ExportSlots } from '@bpc/export-slots';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { emptyExportsState, evolveExports, ExportState, ExportsState } from '../domain/export-record';

const CATCH_UP_DEADLINE_MS = 30_000;
/** How long an append waits to come back through the followed topic (cluster mode). */
const APPLIED_DEADLINE_MS = 30_000;

export type NewExport = Omit<ExportStarted['payload'], 'exportId' | 'fileId'>;

/**
 * Every export record, in memory, rebuilt at startup by replaying
 * `bpc.exports.v1` from the beginning. The account slots and the id counter
 * are the ExportSlots port's (claimed before `start`); the fold's own slot
 * map only mirrors the log.
 *
 * Standalone mode (slots not shared): this process is the only writer of the
 * topic, so after the replay it applies its own events as it appends them
 * and stops reading.
 *
 * Cluster mode (slots shared by replicas): every replica writes the topic, so
 * the index keeps following it (a group of its own, from the beginning) and
 * applies every event, its own included, only as it comes back from the log:
 * all replicas fold the same events in the same order (one account, one
 * partition), and a write resolves once it is applied here.
 */
@Injectable()
export class ExportIndex {
  private state: ExportsState = emptyExportsState();
  private replayed?: Promise<void>;
  /** Kept open while following; the event log's close stops it (after the runner has recorded its exports' outcomes). */
  private subscription?: Subscription;
  /** Event id → resolve, for writes waiting to come back through the followed topic. */
  private readonly waiting = new Map<string, () => void>();
  /** This replica, in the slot it holds and in its subscription's group. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(EXPORT_SLOTS) private readonly slots: ExportSlots,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Whether other replicas write the topic too (the index then follows it). */
  get follows(): boolean {
    return this.slots.shared;
  }

  /** Replays the topic once; later calls share the replay. One that failed (the log unreachable at startup) is made afresh by the next call. */
  ready(): Promise<void> {
    this.replayed ??= this.replay().catch((error: unknown) => {
      this.replayed = undefined;
      throw error;
    });
    return this.replayed;
  }

  /** The record as it stands now; a later event replaces it (records are values), so ask again to see a change. */
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

  /** The record of an export another call (or replica) just started, once the log has brought it here; undefined after the deadline. */
  async arrival(exportId: number, timeoutMs = APPLIED_DEADLINE_MS): Promise<ExportState | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const record = this.state.byId.get(exportId);
      if (record || Date.now() > deadline) return record;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * Records the start of an export whose slot and id the caller claimed.
   * Standalone: applied before the append, in the caller's tick, so a same
   * question sent meanwhile finds it; a failed append takes it back.
   */
  async start(fields: NewExport, exportId: number): Promise<ExportState> {
    const event = this.event(EXPORT_STARTED, { ...fields, exportId, fileId: randomUUID() }, fields.accountId);
    if (this.follows) {
      try {
        await this.record(event);
      } catch (error) {
        throw new AppError('LOG_UNAVAILABLE', `the export could not be recorded: ${(error as Error).message}`);
      }
      return this.state.byId.get(exportId)!;
    }
    this.state = evolveExports(this.state, event);
    const record = this.state.byId.get(exportId)!;
    try {
      await this.log.append(TOPICS.exports, [event]);
    } catch (error) {
      this.state = { ...this.state, byId: this.state.byId.delete(record.exportId), slots: this.state.slots.delete(record.accountId) };
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

  /**
   * Appended first, applied after: the record changes only once the log holds
   * the change. Following the topic, it is applied when it comes back (in the
   * log's order, as on every other replica).
   */
  private async record(event: ExportEvent): Promise<void> {
    if (!this.follows) {
      await this.log.append(TOPICS.exports, [event]);
      this.state = evolveExports(this.state, event);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const applied = new Promise<void>((resolve, reject) => {
      this.waiting.set(event.id, resolve);
      timer = setTimeout(() => reject(new Error(`export event ${event.type} did not come back from the log within ${APPLIED_DEADLINE_MS} ms`)), APPLIED_DEADLINE_MS);
    });
    applied.catch(() => undefined);
    try {
      await this.log.append(TOPICS.exports, [event]);
      await applied;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(event.id);
    }
  }

  private event<T extends ExportEvent['type']>(type: T, payload: Extract<ExportEvent, { type: T }>['payload'], accountId: string): Extract<ExportEvent, { type: T }> {
    return envelope(type, 1, payload, { id: randomUUID(), occurredAt: new Date(this.clock.now()), key: accountId }) as unknown as Extract<ExportEvent, { type: T }>;
  }

  private async replay(): Promise<void> {
    // From scratch: a failed replay may have applied part of the topic.
    this.state = emptyExportsState();
    const subscription = await this.log.subscribe({
      // Following: a group per replica instance (every replica reads every event).
      groupId: this.follows ? `exports-index-${this.owner.replace(/[^A-Za-z0-9._-]/g, '-')}` : `exports-index-${hostname()}-${this.config.listen.public_api}`,
      topics: [TOPICS.exports],
      startAt: async () => '0',
      // All or nothing per batch: a batch holding an unknown event is refused whole, and retried by the log as it is.
      handleBatch: async (batch) => {
        for (const event of knownEventsOf('export index', batch, asExportEvent)) {
          this.state = evolveExports(this.state, event);
          this.waiting.get(event.id)?.();
        }
      },
      maxBatchSize: 1000,
    });
    try {
      if (!(await caughtUpWithin(() => subscription.lag(), CATCH_UP_DEADLINE_MS))) throw new Error(`export index did not replay the log within ${CATCH_UP_DEADLINE_MS} ms`);
      // Ids never go back, even over an emptied slot store.
      await this.slots.reserveIdsUpTo(this.state.lastId);
    } catch (error) {
      await subscription.stop().catch(() => undefined);
      throw error;
    }
    if (this.follows) this.subscription = subscription;
    else await subscription.stop();
  }
}
