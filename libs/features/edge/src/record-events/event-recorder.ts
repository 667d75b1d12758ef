import type { EventLog } from '@bpc/event-log';
import type { EventEnvelope } from '@bpc/events';
import { settlesWithin } from '@bpc/platform';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { EventBuffer } from './event-buffer';

const MAX_RETRY_DELAY_MS = 5_000;
/** How long a buffer-full outage is summed up before its count is logged. */
const DROPPED_LOG_MS = 10_000;

/** Where a recorder keeps what the log did not take at shutdown, and appends it from at the next start (see `EventSpill`). */
export interface RecorderSpill<E> {
  write(events: readonly E[]): Promise<number>;
  replay(signal: AbortSignal): Promise<void>;
}

/** What one recorder records, where, and how its metrics and log lines name it. */
export interface EventRecorderOptions<E> {
  readonly topic: string;
  readonly log: EventLog;
  readonly logger: Logger;
  /** Events held at most while the log refuses them (the oldest go first). */
  readonly bufferMax: number;
  /** Events per sealed batch. */
  readonly batchMax: number;
  /** Sealed batches handed to one append. */
  readonly batchesPerAppend: number;
  readonly flushMs: number;
  /** Longest the shutdown flush keeps trying an unreachable log. */
  readonly shutdownFlushMs: number;
  readonly spill?: RecorderSpill<E>;
  /** Counts events dropped unrecorded, and events appended. */
  readonly dropped: Counter;
  readonly appended: Counter;
  /** What log lines call the events, plural ("bot requests"). */
  readonly noun: string;
  /** The line logged when the buffer first overflows. */
  readonly bufferFullMessage: string;
}

/**
 * Records events without holding up the caller: `add` only buffers (see
 * `EventBuffer`); a timer appends the sealed batches (up to
 * `batchesPerAppend` per append) every `flushMs`, one append in flight at a
 * time, so events keep their order per key. Ids are fixed when an event is
 * made, so a batch appended again after a refused append carries the same
 * ids (the projections fold duplicates).
 *
 * While the log refuses appends, the batches go back to the front of the
 * buffer and are retried with backoff (0.2 s doubling up to 5 s). Beyond
 * `bufferMax` the oldest events are dropped, counted and logged (once per
 * outage, then with the running count). At shutdown the buffer is flushed
 * for up to `shutdownFlushMs`; what the log still has not taken is spilled
 * (appended again at the next start) or, if even that fails, its loss is
 * logged with its count. Spills of earlier runs are appended from `start`
 * on, in the background.
 */
export class EventRecorder<E extends EventEnvelope> {
  private readonly buffer: EventBuffer<E>;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private failures = 0;
  private retryAt = 0;
  private droppedSinceLog = 0;
  /** The batches being appended: taken from the buffer, not yet in the log. */
  private appendingBatches: readonly (readonly E[])[] = [];
  private appending = 0;
  /** Stops the replay of earlier spills at shutdown. */
  private readonly stopReplay = new AbortController();
  private replaying?: Promise<void>;

  constructor(private readonly options: EventRecorderOptions<E>) {
    this.buffer = new EventBuffer<E>(options.bufferMax, options.batchMax);
  }

  /** Starts the flush timer and the replay of earlier spills. */
  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
    this.replaying = this.options.spill?.replay(this.stopReplay.signal);
  }

  /** Buffers one event; never waits, never throws. */
  add(event: E): void {
    this.countDropped(this.buffer.add(event));
  }

  /** Events not yet appended: buffered, or in the batches being appended. */
  pending(): number {
    return this.buffer.size + this.appending;
  }

  /** Appends what is buffered, batch after batch; a running flush is joined (what was added after it began waits for the next). */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /**
   * Flushes until the log took everything or the shutdown deadline passed,
   * then spills the rest. Every wait ends by the deadline: an append to a
   * log that does not answer at all (a black-holed broker) would otherwise
   * hold the shutdown until the process is killed, and the loss would go
   * unreported.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopReplay.abort();
    const deadline = Date.now() + this.options.shutdownFlushMs;
    await settledBy(this.replaying, deadline);
    // A batch being appended ends first: if the log refuses it, it is back in the buffer for the loop below.
    await settledBy(this.flushing, deadline);
    this.retryAt = 0;
    while (Date.now() < deadline && this.pending() > 0) {
      await settledBy(this.flush(), deadline);
      if (this.pending() > 0) await settledBy(new Promise((r) => setTimeout(r, Math.min(200, Math.max(0, this.retryAt - Date.now())))), deadline);
    }
    if (this.pending() > 0) await this.spillUnrecorded();
  }

  /** Counts `n` events dropped for room; logs the first of an outage, and the count 10 s later. */
  private countDropped(n: number): void {
    if (n === 0) return;
    this.options.dropped.inc(n);
    this.droppedSinceLog += n;
    if (this.droppedSinceLog === n) {
      this.options.logger.error({ capacity: this.buffer.capacity }, this.options.bufferFullMessage);
      setTimeout(() => {
        if (this.droppedSinceLog > 0) this.options.logger.error({ dropped: this.droppedSinceLog }, `${this.options.noun} dropped unrecorded (buffer full)`);
        this.droppedSinceLog = 0;
      }, DROPPED_LOG_MS).unref();
    }
  }

  /**
   * Appends every event buffered when it starts, and batches filled up
   * meanwhile; events added meanwhile to the open batch wait for the next
   * flush. Taking them at once instead would append back to back, each
   * append as small as the log's round trip (an fdatasync, a produce
   * request) is short, and an append costs nearly as much for 100 events as
   * for 1,000.
   */
  private async drain(): Promise<void> {
    // While backing off, the open batch stays open: an outage at low traffic would otherwise leave a tiny batch per tick to append one by one.
    if (Date.now() < this.retryAt) return;
    this.buffer.seal();
    for (let batches = this.takeBatches(this.options.batchesPerAppend); batches.length > 0; batches = this.takeBatches(this.options.batchesPerAppend)) {
      const events = batches.flat();
      this.appendingBatches = batches;
      this.appending = events.length;
      try {
        await this.options.log.append(this.options.topic, events);
        this.options.appended.inc(events.length);
        if (this.failures > 0) this.options.logger.info({ after: this.failures }, `event log reachable again: recording ${this.options.noun}`);
        this.failures = 0;
      } catch (error) {
        // A rejected append may have stored part of the batches; the projections fold duplicates by event id.
        this.countDropped(this.buffer.putBack(batches));
        this.failures += 1;
        this.retryAt = Date.now() + Math.min(MAX_RETRY_DELAY_MS, 100 * 2 ** Math.min(this.failures, 6));
        if (this.failures === 1) this.options.logger.warn({ err: error, buffered: this.buffer.size }, `event log refused ${this.options.noun}: buffering and retrying`);
        return;
      } finally {
        this.appendingBatches = [];
        this.appending = 0;
      }
    }
  }

  /**
   * Spills what the log did not take, the batches of an append still in
   * flight included (should it still succeed, the events are there twice,
   * with the same ids); logs the count of what even the spill could not take.
   */
  private async spillUnrecorded(): Promise<void> {
    this.buffer.seal();
    const events = [...this.appendingBatches, ...this.takeBatches(Number.POSITIVE_INFINITY)].flat();
    const { spill, logger, noun } = this.options;
    let spilled = 0;
    let spillError: string | undefined;
    if (spill) spilled = await spill.write(events).catch((error: unknown) => ((spillError = error instanceof Error ? error.message : String(error)), 0));
    if (spilled > 0) logger.warn({ spilled }, `event log unreachable at shutdown: ${noun} spilled to disk, appended at the next start`);
    if (spilled < events.length) logger.error({ lost: events.length - spilled, spillError }, `event log unreachable at shutdown: ${noun} not recorded`);
  }

  /** The oldest sealed batches, up to `limit`. */
  private takeBatches(limit: number): (readonly E[])[] {
    const batches: (readonly E[])[] = [];
    while (batches.length < limit) {
      const batch = this.buffer.take();
      if (batch === undefined) break;
      batches.push(batch);
    }
    return batches;
  }
}

/** Waits for `work` to settle (its outcome is the caller's business) or for `deadline`, whichever comes first. */
async function settledBy(work: Promise<unknown> | undefined, deadline: number): Promise<void> {
  if (work !== undefined) await settlesWithin(work, deadline - Date.now());
}
