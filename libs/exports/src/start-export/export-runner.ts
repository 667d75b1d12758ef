import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock, validationError } from '@bpc/domain';
import { AccountLimits, findExplorer, resolveQuery } from '@bpc/explorer';
import { EXPLORER_STORE, ExplorerStore, ExplorerStoreError } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK, LOGGER } from '@bpc/platform';
import { buildExportSql } from '../csv/export-sql';
import { writeCsvFile } from '../csv/write-csv-file';
import { exportQuestion, questionHash, sanitiseFilename } from '../domain/export-question';
import type { ExportState } from '../domain/export-record';
import { ExportError } from '../http/export-error';
import { ExportIndex } from '../state/export-index';
import type { StartExportDto } from './start-export.dto';

export const DEFAULT_WAIT_SECONDS = 20;
const SWEEP_EVERY_MS = 60_000;

export interface ExportCaller {
  readonly userId: string;
  readonly websiteId: string;
  readonly accountId: string;
}

/**
 * Starts, runs and sweeps exports. The CSV goes from the store to
 * `data_dir/exports/<exportId>.csv` chunk by chunk. At startup, an export the
 * log still shows running was cut off by a crash (this process is the only
 * one that runs exports in standalone mode): it ends `failed` (INTERRUPTED),
 * its partial file is removed and its slot is free.
 */
@Injectable()
export class ExportRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly running = new Map<number, Promise<void>>();
  private sweeper?: NodeJS.Timeout;
  private started?: Promise<void>;

  constructor(
    private readonly index: ExportIndex,
    private readonly limits: AccountLimits,
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  get directory(): string {
    return path.join(this.config.data_dir, 'exports');
  }

  filePath(record: ExportState): string {
    return path.join(this.directory, `${record.exportId}.csv`);
  }

  onApplicationBootstrap(): void {
    this.started = this.recover();
    this.started.catch((error) => this.logger.error({ err: error }, 'exports: recovery failed'));
    this.sweeper = setInterval(() => void this.sweep().catch((error) => this.logger.error({ err: error }, 'exports: sweep failed')), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    // A shutdown waits for running exports' outcome to be recorded (the store closes after this app).
    await Promise.allSettled([...this.running.values()]);
  }

  /** Resolves once records are replayed and interrupted exports are failed. */
  async ready(): Promise<void> {
    if (!this.started) throw new AppError('LOG_UNAVAILABLE', 'exports not started');
    try {
      await this.started;
    } catch (error) {
      throw new AppError('LOG_UNAVAILABLE', `exports unavailable: ${(error as Error).message}`);
    }
  }

  /**
   * The export call: validates, rejoins the same question, or claims the
   * account's slot; then waits up to `waitSeconds` for the file.
   */
  async start(caller: ExportCaller, explorerKey: string, body: StartExportDto): Promise<ExportState> {
    await this.ready();
    const explorer = findExplorer(explorerKey);
    if (!explorer) throw new AppError('NOT_FOUND', `unknown explorer ${explorerKey}`);
    const { filename: requestedName, maxRows: requestedRows, waitSeconds, ...queryBody } = body;
    const cap = this.limits.of(caller.accountId).exportRowCap;
    const maxRows = requestedRows ?? cap;
    if (maxRows > cap) throw validationError('maxRows', `maxRows must not exceed the account's exportRowCap (${cap})`);
    // perPage carries the row ceiling into the explorer's SQL; it is not a body field here.
    const query = { ...resolveQuery(explorer, queryBody, this.clock.now(), { ...this.limits.of(caller.accountId), perPageMax: Number.MAX_SAFE_INTEGER }), perPage: maxRows, page: 1 };
    const filename = sanitiseFilename(requestedName, explorer.key);
    const hash = questionHash(caller.userId, caller.websiteId, exportQuestion(query, maxRows, filename));

    // From here to index.start() nothing awaits: the rejoin check, the slot check and the claim are one step.
    let record = this.index.sameQuestion(hash);
    if (!record) {
      const holder = this.index.slotHolder(caller.accountId);
      if (holder !== undefined) throw new ExportError('EXPORT_SLOT_BUSY', `export ${holder} is running for this account; one export runs at a time`, { exportId: holder });
      const claim = this.index.start({
        accountId: caller.accountId,
        websiteId: caller.websiteId,
        userId: caller.userId,
        explorerKey: explorer.key,
        questionHash: hash,
        columns: [...query.columns],
        maxRows,
        filename,
        window: { start: query.window.start.toISOString(), end: query.window.end.toISOString() },
      });
      record = await claim;
      const { sql, params } = buildExportSql(query, caller.websiteId);
      this.running.set(record.exportId, this.run(record, sql, params));
    }
    await this.waitFor(record, waitSeconds ?? DEFAULT_WAIT_SECONDS);
    return record;
  }

  private async waitFor(record: ExportState, seconds: number): Promise<void> {
    const done = this.running.get(record.exportId);
    if (!done || seconds === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, seconds * 1000)))]);
    clearTimeout(timer);
  }

  private async run(record: ExportState, sql: string, params: Record<string, unknown>): Promise<void> {
    try {
      await mkdir(this.directory, { recursive: true });
      const { rowCount, sizeBytes } = await writeCsvFile(this.store.streamRaw(sql, params, 'CSVWithNames'), this.filePath(record));
      await this.index.complete(record, rowCount, sizeBytes);
    } catch (error) {
      this.logger.error({ err: error, exportId: record.exportId }, 'export failed');
      const message = (error as Error).message ?? String(error);
      await this.index.fail(record, error instanceof ExplorerStoreError ? 'QUERY_FAILED' : 'GENERATION_FAILED', message.slice(0, 500)).catch((e) =>
        this.logger.error({ err: e, exportId: record.exportId }, 'export failure could not be recorded; the next start marks it interrupted'),
      );
    } finally {
      this.running.delete(record.exportId);
    }
  }

  private async recover(): Promise<void> {
    await this.index.ready();
    await mkdir(this.directory, { recursive: true });
    for (const record of [...this.index.all()]) {
      if (record.status !== 'running' || this.running.has(record.exportId)) continue;
      await rm(`${this.filePath(record)}.part`, { force: true });
      await this.index.fail(record, 'INTERRUPTED', 'the service stopped while the export was running; start it again');
    }
    // Leftovers of a crash between a write and its record.
    for (const name of await readdir(this.directory)) if (name.endsWith('.part')) await rm(path.join(this.directory, name), { force: true });
    await this.sweep();
  }

  /** Removes finished exports older than the retention: the file, then the record (ExportExpired). */
  async sweep(): Promise<void> {
    const cutoff = this.clock.now() - this.config.exports.retention_hours * 3_600_000;
    for (const record of [...this.index.all()]) {
      if (record.status === 'running' || record.finishedAt === undefined || Date.parse(record.finishedAt) > cutoff) continue;
      await rm(this.filePath(record), { force: true });
      await this.index.expire(record);
    }
  }

  /** When a finished export's file is removed. */
  retainedUntil(record: ExportState): number {
    return Date.parse(record.finishedAt ?? record.createdAt) + this.config.exports.retention_hours * 3_600_000;
  }
}
