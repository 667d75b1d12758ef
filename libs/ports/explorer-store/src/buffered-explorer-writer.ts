import type { Logger } from 'pino';
import { type ExplorerStore, type Row, rowCount } from './explorer-store.port';
import { CHECKPOINTS_TABLE, type CheckpointRow } from './tables/projection-checkpoints/projection-checkpoints.table';
import { SEARCH_DAY_IMPORTS_TABLE } from './tables/search-performance/search-performance.table';

/** Rows per table, as one log batch contributes them. */
export type BatchRows = ReadonlyMap<string, readonly Row[]>;

function markersLast<T>(tables: ReadonlyMap<string, T>): [string, T][] {
  const entries = [...tables.entries()];
  return [...entries.filter(([t]) => t !== SEARCH_DAY_IMPORTS_TABLE), ...entries.filter(([t]) => t === SEARCH_DAY_IMPORTS_TABLE)];
}

export interface WriterLimits {
  /** Rows buffered before a flush is forced (and the log waits for it). */
  readonly maxRows: number;
  /** Longest time a row waits in the buffer. */
  readonly maxDelayMs: number;
}

interface Span {
  first: string;
  next: string;
}

/**
 * Gathers rows of consecutive log batches into large inserts (ClickHouse
 * wants few, big parts), bounded by size and time. Safe although the log
 * commits each batch's offset as soon as `add` returns: the projector's own
 * checkpoint (written to ClickHouse after the rows it covers) is where a
 * restart resumes, so rows lost from memory by a crash are read again.
 *
 * One write is in flight while the next buffer fills (parsing overlaps the
 * engine's insert); writes run in order, so checkpoints only move forward. A
 * failed write is retried with backoff and, once the next buffer is full,
 * holds up `add`, so the log stops delivering: nothing is ever skipped.
 */
export class BufferedExplorerWriter {
  /** Rows per table, in the batches they came in (joined at the insert). */
  private tables = new Map<string, (readonly Row[])[]>();
  private rows = 0;
  private spans = new Map<string, Span>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private inFlightRows = 0;
  private stopped = false;
  /** While held, the time bound waits (see `hold`). */
  private held = false;

  constructor(
    private readonly store: ExplorerStore,
    private readonly logger: Logger,
    private readonly limits: WriterLimits,
    private readonly onInserted: (table: string, rows: number) => void = () => undefined,
  ) {}

  /** Rows read from the log but not yet written (the part of the lag the log no longer sees). */
  buffered(): number {
    return this.rows + this.inFlightRows;
  }

  /** Buffers a batch's rows; `nextOffset` is the offset after the batch's last record. */
  async add(stream: string, firstOffset: string, nextOffset: string, tables: BatchRows): Promise<void> {
    for (const [table, rows] of tables) {
      const buffered = this.tables.get(table);
      if (buffered) buffered.push(rows);
      else this.tables.set(table, [rows]);
      this.rows += rowCount(rows);
    }
    const span = this.spans.get(stream);
    if (span) span.next = nextOffset;
    else this.spans.set(stream, { first: firstOffset, next: nextOffset });
    if (this.rows >= this.limits.maxRows) {
      // Backpressure: at most one write in flight and one buffer filling; while
      // a write keeps failing, the log stops delivering here instead of memory growing.
      await this.flushing;
      void this.startWrite().catch(() => undefined);
    } else if (!this.timer) {
      this.armTimer();
    }
  }

  /**
   * Holds the time bound while the projection pauses for saturated serving
   * (an insert takes CPU, caches and the serving thread's time too): rows
   * gathered before the pause wait in the buffer until `release`. The size
   * bound, `flush` and `close` still write.
   */
  hold(): void {
    this.held = true;
  }

  /** Ends a `hold`: what is buffered is written at once (behind a write in flight, the time bound's timer, still armed, writes it). */
  release(): void {
    this.held = false;
    if (this.spans.size > 0 && !this.flushing) void this.startWrite().catch(() => undefined);
  }

  /** The time bound: write what is buffered, but never queue a second write behind one in flight, nor write while held. */
  private armTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.flushing || this.held) this.armTimer();
      else void this.startWrite().catch(() => undefined);
    }, this.limits.maxDelayMs);
  }

  /** Shutdown: a write that keeps failing stops retrying (the checkpoint replays what it held). */
  stopRetrying(): void {
    this.stopped = true;
  }

  /** Writes everything buffered so far and waits for it. */
  async flush(): Promise<void> {
    await this.startWrite();
  }

  /** One last attempt to write what is buffered, without retrying (shutdown). */
  async close(): Promise<void> {
    this.stopRetrying();
    clearTimeout(this.timer);
    await this.flush().catch((error) => this.logger.error({ err: error }, 'explorer projector: final flush failed; the log is read again from the checkpoint at restart'));
  }

  /** Queues a write of the current buffer after the one in flight; resolves when both are done. */
  private startWrite(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.spans.size > 0) {
      const tables = this.tables;
      const spans = this.spans;
      const rows = this.rows;
      this.tables = new Map();
      this.spans = new Map();
      this.rows = 0;
      this.inFlightRows += rows;
      const write = (this.flushing ?? Promise.resolve()).then(() => this.write(tables, spans)).finally(() => {
        this.inFlightRows -= rows;
        if (this.flushing === write) this.flushing = undefined;
      });
      this.flushing = write;
    }
    return this.flushing ?? Promise.resolve();
  }

  private async write(buffered: Map<string, (readonly Row[])[]>, spans: Map<string, Span>): Promise<void> {
    const tables = new Map([...buffered].map(([table, batches]) => [table, batches.flat()]));
    // Log positions make the token: a retried write of the same rows is dropped by the engine.
    const positions = [...spans.entries()].map(([stream, s]) => `${stream}:${s.first}-${s.next}`).join(',');
    let delay = 50;
    for (let attempt = 1; ; attempt++) {
      try {
        // Data tables first, the "latest import of the day" markers last: a marker
        // must never point queries at an import whose rows are not there yet.
        for (const [table, rows] of markersLast(tables)) {
          await this.store.insert({ table, rows, token: `${table}@${positions}` });
          this.onInserted(table, rowCount(rows));
        }
        const updatedAt = new Date().toISOString();
        const checkpoints: CheckpointRow[] = [...spans.entries()].map(([stream, s]) => ({ stream, next_offset: s.next, updated_at: updatedAt }));
        await this.store.insert({
          table: CHECKPOINTS_TABLE,
          rows: checkpoints,
          token: `${CHECKPOINTS_TABLE}@${positions}`,
        });
        return;
      } catch (error) {
        if (this.stopped) throw error;
        this.logger.error({ err: error, attempt, positions }, 'explorer projector: write failed, retrying (the log waits)');
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5_000);
      }
    }
  }
}
