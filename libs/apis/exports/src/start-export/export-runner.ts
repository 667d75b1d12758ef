import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock, validationError } from '@bpc/domain';
import { AccountLimits, ExplorerDef, explorerBusyError, ResolvedQuery, resolveQuery } from '@bpc/explorer';
import { Admission, admittedSettings, AdmissionRefusedError, EXPLORER_STORE, EXPORT_TIME_LIMIT_S, ExplorerAdmission, ExplorerStore, ExplorerStoreError, QueryParams, StatementTicket } from '@bpc/explorer-store';
import type { ExportOrigin } from '@bpc/events';
import { EXPORT_SLOTS, ExportSlots } from '@bpc/export-slots';
import { OBJECT_STORE, type ObjectStore } from '@bpc/object-store';
import { APP_CONFIG, CLOCK, LOGGER, settlesWithin } from '@bpc/platform';
import { buildExportSql, exportResourceSettings } from '../csv/export-sql';
import { writeCsvObject } from '../csv/write-csv-object';
import { EXPORT_OBJECTS_PREFIX, exportObjectKey } from '../domain/export-object-key';
import { exportQuestion, questionHash, sanitiseFilename } from '../domain/export-question';
import type { ExportState } from '../domain/export-record';
import { ExportIndex } from '../state/export-index';
import { isLeftoverObject, isLeftoverStagingFile, type LeftoverContext } from '../sweep-exports/export-leftovers';
import type { StartExportDto } from './start-export.dto';

export const DEFAULT_WAIT_SECONDS = 20;
const SWEEP_EVERY_MS = 60_000;
/**
 * The slot lease: a running export renews it every third of it; a replica
 * that stops renewing (crash, hang) loses the slot after this long, and any
 * replica then fails the export (INTERRUPTED).
 */
export const EXPORT_LEASE_MS = 15_000;
/** How often a replica following the log looks for running exports whose lease ended (cluster mode). */
export const RECONCILE_EVERY_MS = 5_000;
/** A staging file or an object of an export this replica does not know yet is left alone this long (cluster: another replica may be writing it). */
const UNKNOWN_EXPORT_GRACE_MS = 3_600_000;
/** How long a shutdown waits for running exports to finish before it fails them (INTERRUPTED). */
const SHUTDOWN_WAIT_MS = 8_000;
/** Overrides the 8 s of the shutdown wait (tests). */
export const EXPORT_SHUTDOWN_WAIT_MS = Symbol('EXPORT_SHUTDOWN_WAIT_MS');
/** Longest recording those failures may take (an append, and in cluster mode its return through the followed topic). */
const SHUTDOWN_RECORD_MS = 3_000;
const SHUTDOWN_MESSAGE = 'the service stopped before the export finished; start it again';

export interface ExportCaller {
  readonly userId: string;
  readonly websiteId: string;
  readonly accountId: string;
  /** Kept on the record only: the same question from the dashboard and the API is one export. */
  readonly startedFrom: ExportOrigin;
}

/**
 * Starts, runs and sweeps exports. The store writes the CSV to a staging
 * file, `data_dir/export-staging/<exportId>.csv`, without the rows passing
 * through memory here; it is then uploaded, streamed, to the object store as
 * `exports/<exportId>.csv` (files under `data_dir`, or a bucket every replica
 * shares), published only whole and only while the lease holds. The account slot and
 * the export id come from the ExportSlots port, held under a lease the
 * running export renews. An export the log shows running whose lease is gone
 * was cut off by a crash: at startup (and, in cluster mode, every few
 * seconds) it ends `failed` (INTERRUPTED), its staging file is removed (an
 * object it may have published goes with the next sweep) and its slot is
 * free; a live replica's running export keeps its lease and is left alone.
 */
@Injectable()
export class ExportRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly running = new Map<number, Promise<void>>();
  /**
   * Who records a running export's outcome, once one side has claimed it: its
   * run (the result) or the shutdown (INTERRUPTED, the file never published).
   * Claimed in one synchronous step, so an outcome is never recorded twice.
   */
  private readonly outcomeBy = new Map<number, 'run' | 'shutdown'>();
  private sweeper?: NodeJS.Timeout;
  private reconciler?: NodeJS.Timeout;
  private started?: Promise<void>;
  private recoveryFailed = false;

  constructor(
    private readonly index: ExportIndex,
    @Inject(EXPORT_SLOTS) private readonly slots: ExportSlots,
    private readonly limits: AccountLimits,
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    private readonly admission: ExplorerAdmission,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(EXPORT_SHUTDOWN_WAIT_MS) private readonly shutdownWaitMs: number = SHUTDOWN_WAIT_MS,
  ) {}

  /** Local scratch for the engine's output before its upload (the engine writes files, not objects). */
  get stagingDirectory(): string {
    return path.join(this.config.data_dir, 'export-staging');
  }

  stagingPath(exportId: number): string {
    return path.join(this.stagingDirectory, `${exportId}.csv`);
  }

  onApplicationBootstrap(): void {
    this.startRecovery();
    this.sweeper = setInterval(() => void this.sweep().catch((error) => this.logger.error({ err: error }, 'exports: sweep failed')), SWEEP_EVERY_MS);
    this.sweeper.unref();
    if (this.index.follows) {
      this.reconciler = setInterval(() => void this.reconcile().catch((error) => this.logger.warn({ err: error }, 'exports: lease check failed')), RECONCILE_EVERY_MS);
      this.reconciler.unref();
    }
  }

  /**
   * Waits (bounded) for running exports' outcome to be recorded (the store
   * closes after this app). An export still running then is failed
   * (INTERRUPTED), as after a crash, its slot released and its file never
   * published; if that cannot be recorded in time, its lease lapses and the
   * next start (or another replica) fails it.
   */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    clearInterval(this.reconciler);
    if (await settlesWithin(Promise.allSettled([...this.running.values()]), this.shutdownWaitMs)) return;
    await settlesWithin(Promise.allSettled([...this.running.keys()].map((exportId) => this.interruptAtShutdown(exportId))), SHUTDOWN_RECORD_MS);
  }

  private async interruptAtShutdown(exportId: number): Promise<void> {
    const record = this.index.get(exportId);
    if (!record || record.status !== 'running' || !this.claimOutcome(exportId, 'shutdown')) return;
    this.logger.warn({ exportId, waitedMs: this.shutdownWaitMs }, 'export still running at shutdown: failing it (INTERRUPTED)');
    try {
      await this.index.fail(record, 'INTERRUPTED', SHUTDOWN_MESSAGE);
    } catch (error) {
      this.logger.error({ err: error, exportId }, 'export interruption could not be recorded; the next start marks it interrupted');
      return;
    }
    await this.slots.release(record.accountId, exportId).catch((error) => this.logger.warn({ err: error, exportId }, 'export slot not released; its lease ends it'));
  }

  /** Resolves once records are replayed and interrupted exports are failed. */
  async ready(): Promise<void> {
    if (!this.started) throw new AppError('LOG_UNAVAILABLE', 'exports not started');
    // A recovery that failed (e.g. the slot store was down at startup) is tried again by the next call.
    if (this.recoveryFailed) this.startRecovery();
    try {
      await this.started;
    } catch (error) {
      throw new AppError('LOG_UNAVAILABLE', `exports unavailable: ${(error as Error).message}`);
    }
  }

  /**
   * The export call: validates, rejoins the same question, or claims the
   * account's slot; then waits up to `waitSeconds` for the file. `explorer`
   * is a Data Explorer explorer or the website's render history: one slot
   * per account for both.
   */
  async start(caller: ExportCaller, explorer: ExplorerDef, body: StartExportDto): Promise<ExportState> {
    await this.ready();
    const { filename: requestedName, maxRows: requestedRows, waitSeconds, ...queryBody } = body;
    const cap = this.limits.of(caller.accountId).exportRowCap;
    const maxRows = requestedRows ?? cap;
    if (maxRows > cap) throw validationError('maxRows', `maxRows must not exceed the account's exportRowCap (${cap})`);
    // perPage carries the row ceiling into the explorer's SQL; it is not a body field here.
    const query = { ...resolveQuery(explorer, queryBody, this.clock.now(), { ...this.limits.of(caller.accountId), perPageMax: Number.MAX_SAFE_INTEGER }), perPage: maxRows, page: 1 };
    const filename = sanitiseFilename(requestedName, explorer.key);
    const hash = questionHash(caller.userId, caller.websiteId, exportQuestion(query, maxRows, filename));

    let record = this.index.sameQuestion(hash);
    // A running export whose replica died rejoins nothing: it is failed now, and this call starts afresh.
    if (record?.status === 'running' && !this.running.has(record.exportId) && (await this.interruptIfDead(record))) record = this.index.sameQuestion(hash);
    if (!record) {
      // The export's statement takes its place in the admission queue before anything is claimed: refused (503), nothing changed.
      const ticket = this.enterAdmission(caller.accountId);
      let started = false;
      try {
        ({ record, started } = await this.claimOrRejoin(caller, query, maxRows, filename, hash));
      } finally {
        if (!started) ticket.leave();
      }
      if (started) {
        const { inProcess } = this.store;
        // Its engine time bound is what its wait in the queue left of the export's budget.
        const sqlFor = (admitted: Admission) => buildExportSql(query, caller.websiteId, { ...exportResourceSettings(inProcess), ...admittedSettings(admitted, inProcess) });
        this.running.set(record.exportId, this.run(record, ticket, sqlFor));
      }
    }
    await this.waitFor(record, waitSeconds ?? DEFAULT_WAIT_SECONDS);
    // Records are values: the outcome, if it came meanwhile, is in the index's current one.
    return this.index.get(record.exportId) ?? record;
  }

  /** A place in the admission queue for the export's statement; its budget (the export's time bound) counts from now. */
  private enterAdmission(accountId: string): StatementTicket {
    try {
      return this.admission.enter(accountId, this.clock.now() + EXPORT_TIME_LIMIT_S * 1000, 'export');
    } catch (error) {
      if (error instanceof AdmissionRefusedError) throw explorerBusyError(error, this.config, `the export's ${EXPORT_TIME_LIMIT_S} s`);
      throw error;
    }
  }

  /** Claims the account's slot and records the export as started, or rejoins the same question another call started a moment ago. */
  private async claimOrRejoin(caller: ExportCaller, query: ResolvedQuery, maxRows: number, filename: string, hash: string): Promise<{ record: ExportState; started: boolean }> {
    // The claim is atomic in the slot store (across replicas in cluster mode): of racing calls exactly one gets the slot.
    const claim = await this.slots.claim(caller.accountId, this.index.owner, hash, EXPORT_LEASE_MS);
    if (!claim.claimed) {
      const holder = claim.holder.exportId;
      // The same question, started a moment ago (maybe by another replica): rejoin it once its record is here.
      const same = claim.holder.questionHash === hash ? await this.index.arrival(holder) : undefined;
      if (!same) throw new AppError('EXPORT_SLOT_BUSY', `export ${holder} is running for this account; one export runs at a time`, undefined, { exportId: holder });
      return { record: same, started: false };
    }
    const starting = this.index.start(
      {
        accountId: caller.accountId,
        websiteId: caller.websiteId,
        userId: caller.userId,
        explorerKey: query.explorer.key,
        questionHash: hash,
        columns: [...query.columns],
        maxRows,
        filename,
        window: { start: query.window.start.toISOString(), end: query.window.end.toISOString() },
        startedFrom: caller.startedFrom,
      },
      claim.exportId,
    );
    try {
      return { record: await starting, started: true };
    } catch (error) {
      await this.slots.release(caller.accountId, claim.exportId).catch(() => undefined);
      throw error;
    }
  }

  private async waitFor(record: ExportState, seconds: number): Promise<void> {
    if (seconds === 0 || record.status !== 'running') return;
    const done = this.running.get(record.exportId);
    if (!done) {
      // Run by another replica: its outcome arrives through the followed log into the index.
      const deadline = Date.now() + seconds * 1000;
      while (this.index.get(record.exportId)?.status === 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, seconds * 1000)))]);
    clearTimeout(timer);
  }

  /** Waits its turn in the admission queue (`ticket`), then has the engine write the file, and records the outcome. */
  private async run(record: ExportState, ticket: StatementTicket, sqlFor: (admitted: Admission) => { sql: string; params: QueryParams }): Promise<void> {
    let leaseLost = false;
    // Until the last confirmed renewal plus the lease, no other replica can have taken the export over
    // (leases run on real time in both slot stores, whatever clock the records use).
    let heldUntil = Date.now() + EXPORT_LEASE_MS;
    const lose = (why: string): void => {
      if (!leaseLost) this.logger.error({ exportId: record.exportId }, `export lease lost (${why}): its file will not be published`);
      leaseLost = true;
    };
    const renewal = setInterval(() => {
      if (this.outcomeBy.get(record.exportId) === 'shutdown') return;
      const asked = Date.now();
      this.slots.renew(record.accountId, record.exportId, EXPORT_LEASE_MS).then(
        (held) => {
          if (held) heldUntil = Math.max(heldUntil, asked + EXPORT_LEASE_MS);
          else lose('taken over');
        },
        (error) => {
          this.logger.warn({ err: error, exportId: record.exportId }, 'export lease not renewed; retrying');
          // Renewals failing for longer than the lease: another replica may already have failed the export.
          if (Date.now() >= heldUntil) lose('not renewed in time');
        },
      );
    }, EXPORT_LEASE_MS / 3);
    const key = exportObjectKey(record.exportId);
    try {
      const statement = sqlFor(await ticket.admitted);
      // The engine writes the whole file in one statement (at most exportRowCap rows); a replica that lost the lease meanwhile does not publish it.
      const { rowCount, sizeBytes } = await writeCsvObject(this.store, this.objects, statement, { key, stagingPath: this.stagingPath(record.exportId) }, () => {
        if (this.outcomeBy.get(record.exportId) === 'shutdown') throw new Error(SHUTDOWN_MESSAGE);
        if (leaseLost || Date.now() >= heldUntil) throw new Error('the export lost its slot lease (this replica stalled or lost the slot store); start it again');
      });
      // Given up on while its file was being published: the shutdown records it failed, so the file goes (else the next sweep takes it).
      if (this.claimOutcome(record.exportId, 'run')) await this.index.complete(record, rowCount, sizeBytes);
      else await this.objects.remove([key]).catch((error) => this.logger.warn({ err: error, exportId: record.exportId }, 'file of an interrupted export not removed; the next sweep removes it'));
    } catch (error) {
      if (!this.claimOutcome(record.exportId, 'run')) return;
      this.logger.error({ err: error, exportId: record.exportId }, 'export failed');
      const message = (error as Error).message ?? String(error);
      const code = error instanceof ExplorerStoreError || error instanceof AdmissionRefusedError ? 'QUERY_FAILED' : 'GENERATION_FAILED';
      await this.index.fail(record, code, message.slice(0, 500)).catch((e) =>
        this.logger.error({ err: e, exportId: record.exportId }, 'export failure could not be recorded; the next start marks it interrupted'),
      );
    } finally {
      ticket.leave();
      clearInterval(renewal);
      this.running.delete(record.exportId);
      // After the outcome is in the log: whoever claims next finds this export finished (the shutdown releases the slots of those it fails).
      const recordedByRun = this.outcomeBy.get(record.exportId) === 'run';
      if (recordedByRun) this.outcomeBy.delete(record.exportId);
      if (recordedByRun) await this.slots.release(record.accountId, record.exportId).catch((error) => this.logger.warn({ err: error, exportId: record.exportId }, 'export slot not released; its lease ends it'));
    }
  }

  /** True when `owner` records the export's outcome: it claimed it now, or had before. */
  private claimOutcome(exportId: number, owner: 'run' | 'shutdown'): boolean {
    if (!this.outcomeBy.has(exportId)) this.outcomeBy.set(exportId, owner);
    return this.outcomeBy.get(exportId) === owner;
  }

  private startRecovery(): void {
    this.recoveryFailed = false;
    this.started = this.recover();
    this.started.catch((error) => {
      this.recoveryFailed = true;
      this.logger.error({ err: error }, 'exports: recovery failed');
    });
  }

  private async recover(): Promise<void> {
    await this.index.ready();
    await this.reconcile();
    await this.sweepStaging();
    await this.sweep();
  }

  private leftoverContext(): LeftoverContext {
    return { follows: this.index.follows, now: Date.now(), graceMs: UNKNOWN_EXPORT_GRACE_MS };
  }

  /** Staging files a crash left behind (the engine's output, not uploaded). A data directory replicas share: only files no live export writes. */
  private async sweepStaging(): Promise<void> {
    const names = await readdir(this.stagingDirectory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const context = this.leftoverContext();
    for (const name of names) {
      const file = path.join(this.stagingDirectory, name);
      const id = /^(\d{1,15})\.csv$/.exec(name)?.[1];
      if (id !== undefined && this.running.has(Number(id))) continue;
      const modifiedAt = await stat(file).then((s) => s.mtimeMs, () => context.now);
      if (isLeftoverStagingFile(id === undefined ? undefined : this.index.get(Number(id)), modifiedAt, context)) await rm(file, { force: true });
    }
  }

  /** Fails every export the log shows running that no replica holds a live lease for (this one's own are running here). */
  async reconcile(): Promise<void> {
    for (const record of [...this.index.all()]) {
      if (record.status !== 'running' || this.running.has(record.exportId)) continue;
      await this.interruptIfDead(record);
    }
  }

  /** True when the export had no live lease and is now failed (INTERRUPTED). */
  private async interruptIfDead(record: ExportState): Promise<boolean> {
    if (await this.slots.isLive(record.accountId, record.exportId)) return false;
    this.logger.warn({ exportId: record.exportId, accountId: record.accountId }, 'export without a live lease: its process stopped; marking it interrupted');
    await rm(this.stagingPath(record.exportId), { force: true });
    await this.index.fail(record, 'INTERRUPTED', 'the service stopped while the export was running; start it again');
    return true;
  }

  /**
   * Removes finished exports older than the retention (the file, then the
   * record: ExportExpired), then the files no export keeps (see
   * `isLeftoverObject`). Every replica sweeps; removing twice is harmless. An
   * object store out of reach is logged and leaves its work to the next
   * sweep: records stay readable meanwhile.
   */
  async sweep(): Promise<void> {
    const cutoff = this.clock.now() - this.config.exports.retention_hours * 3_600_000;
    for (const record of [...this.index.all()]) {
      if (record.status === 'running' || record.finishedAt === undefined || Date.parse(record.finishedAt) > cutoff) continue;
      try {
        await this.objects.remove([exportObjectKey(record.exportId)]);
      } catch (error) {
        this.logger.warn({ err: error, exportId: record.exportId }, 'exports: expired file not removed; the next sweep tries again');
        continue;
      }
      await this.index.expire(record);
    }
    await this.removeLeftoverObjects().catch((error) => this.logger.warn({ err: error }, 'exports: leftover files not swept; the next sweep tries again'));
  }

  private async removeLeftoverObjects(): Promise<void> {
    const context = this.leftoverContext();
    const leftovers: string[] = [];
    for await (const object of this.objects.list(EXPORT_OBJECTS_PREFIX)) {
      if (isLeftoverObject(object, (exportId) => this.index.get(exportId), context)) leftovers.push(object.key);
    }
    if (leftovers.length > 0) await this.objects.remove(leftovers);
  }

  /** When a finished export's file is removed. */
  retainedUntil(record: ExportState): number {
    return Date.parse(record.finishedAt ?? record.createdAt) + this.config.exports.retention_hours * 3_600_000;
  }
}
