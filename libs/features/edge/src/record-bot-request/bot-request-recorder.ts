import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { BotRequestRecorded, RecordedBotRequest, recordedBotRequestEvent, TOPICS } from '@bpc/events';
import { APP_CONFIG, LOGGER, METRICS_REGISTRY, settlesWithin } from '@bpc/platform';
import type { Logger } from 'pino';
import { Counter, Gauge, Registry } from 'prom-client';
import { BotRequestBuffer } from './bot-request-buffer';
import { BotRequestSpill } from './bot-request-spill';

/** Longest the shutdown flush keeps trying an unreachable log. */
const SHUTDOWN_FLUSH_MS = 10_000;
/** Overrides the 10 s of the shutdown flush (tests). */
export const RECORDER_SHUTDOWN_FLUSH_MS = Symbol('RECORDER_SHUTDOWN_FLUSH_MS');
const MAX_RETRY_DELAY_MS = 5_000;
/** Sealed batches handed to one append: on the file log they share one write and one fsync. */
const MAX_BATCHES_PER_APPEND = 16;

/**
 * Records bot requests as `BotRequestRecorded` events without holding up the
 * response: `record` makes the request's event and puts it in the open batch
 * (see `BotRequestBuffer`); a timer appends batches of up to
 * `edge.record_batch_max` every `edge.record_flush_ms` (up to 16 batches per
 * append), one append in flight at a time, so events keep their order per
 * website, to the event log's bot request topic. Each request's
 * event id (a random UUID) is fixed when it is recorded, so a batch appended
 * again after a refused append carries the same ids (and the explorer folds
 * duplicates).
 *
 * While the log refuses appends, the batch goes back to the front of the
 * buffer and is retried with backoff (up to 5 s). The buffer holds at most
 * `edge.record_buffer_max` events: beyond it the oldest are dropped, counted
 * in `bpc_edge_recorded_dropped_total` and logged (once per outage, with the
 * running count). The buffer is flushed when the app shuts down (after the
 * HTTP server stopped, bounded by 10 s).
 *
 * What the log still has not taken when the shutdown flush ends is spilled
 * to a local file (see `BotRequestSpill`), appended when the edge starts
 * again; if even that file cannot be written, the loss is logged with its
 * count. Spilled files of earlier runs are appended from `onModuleInit` on,
 * in the background.
 */
@Injectable()
export class BotRequestRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly buffer: BotRequestBuffer;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private failures = 0;
  private retryAt = 0;
  private droppedSinceLog = 0;
  private unencodableLogged = false;
  /** The batches being appended: taken from the buffer, not yet in the log. */
  private appendingBatches: readonly (readonly BotRequestRecorded[])[] = [];
  private appending = 0;
  /** Stops the replay of earlier spills at shutdown. */
  private readonly stopReplay = new AbortController();
  private replaying?: Promise<void>;
  private readonly dropped: Counter;
  private readonly appended: Counter;
  private readonly buffered: Gauge;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Optional() @Inject(RECORDER_SHUTDOWN_FLUSH_MS) private readonly shutdownFlushMs: number = SHUTDOWN_FLUSH_MS,
    @Optional() @Inject(BotRequestSpill) private readonly spill?: BotRequestSpill,
  ) {
    this.buffer = new BotRequestBuffer(config.edge.record_buffer_max, config.edge.record_batch_max);
    this.dropped = new Counter({ name: 'bpc_edge_recorded_dropped_total', help: 'Bot requests dropped unrecorded because the recording buffer was full', registers: [registry] });
    this.appended = new Counter({ name: 'bpc_edge_recorded_total', help: 'Bot requests appended to the event log', registers: [registry] });
    this.buffered = new Gauge({ name: 'bpc_edge_record_buffer_size', help: 'Bot requests waiting for the event log', registers: [registry], collect: () => this.buffered.set(this.pending()) });
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.edge.record_flush_ms);
    this.timer.unref();
    this.replaying = this.spill?.replay(this.stopReplay.signal);
  }

  /** Buffers one request (the event occurred when it was served); never waits, never throws. */
  record(request: RecordedBotRequest): void {
    let event: BotRequestRecorded;
    try {
      event = recordedBotRequestEvent(request, randomUUID());
    } catch (error) {
      // A request that cannot be recorded is a bug in the edge, not the request's fault: counted as dropped, logged once.
      this.dropped.inc();
      if (!this.unencodableLogged) this.logger.error({ err: error }, 'bot request could not be recorded');
      this.unencodableLogged = true;
      return;
    }
    this.countDropped(this.buffer.add(event));
  }

  /** Events not yet appended: buffered, or in the batch being appended. */
  pending(): number {
    return this.buffer.size + this.appending;
  }

  /**
   * Every wait ends by the deadline: an append to a log that does not answer
   * at all (a black-holed broker) would otherwise hold the shutdown until the
   * process is killed, and the loss would go unreported.
   */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.stopReplay.abort();
    const deadline = Date.now() + this.shutdownFlushMs;
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

  /**
   * Spills what the log did not take, the batches of an append still in
   * flight included (should it still succeed, the events are there twice,
   * with the same ids); logs the count of what even the spill could not take.
   */
  private async spillUnrecorded(): Promise<void> {
    this.buffer.seal();
    const events = [...this.appendingBatches, ...this.takeAll()].flat();
    let spilled = 0;
    let spillError: string | undefined;
    if (this.spill) spilled = await this.spill.write(events).catch((error: unknown) => ((spillError = error instanceof Error ? error.message : String(error)), 0));
    if (spilled > 0) this.logger.warn({ spilled }, 'event log unreachable at shutdown: bot requests spilled to disk, appended at the next start');
    if (spilled < events.length) this.logger.error({ lost: events.length - spilled, spillError }, 'event log unreachable at shutdown: bot requests not recorded');
  }

  /** Appends what is buffered, one batch after the other; a running flush is joined (what was recorded after it began waits for the next). */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /**
   * Appends every event buffered when it starts, and batches filled up
   * meanwhile; other requests served meanwhile wait for the next flush.
   * Taking them at once instead would append back to back, each append as
   * small as the log's round trip (an fdatasync, a produce request) is
   * short, and an append costs nearly as much for 100 events as for 1,000.
   */
  private async drain(): Promise<void> {
    // While backing off, the open batch stays open: an outage at low traffic would otherwise leave a tiny batch per tick to append one by one.
    if (Date.now() < this.retryAt) return;
    this.buffer.seal();
    for (let batches = this.takeBatches(); batches.length > 0; batches = this.takeBatches()) {
      const events = batches.flat();
      this.appendingBatches = batches;
      this.appending = events.length;
      try {
        await this.log.append(TOPICS.botRequests, events);
        this.appended.inc(events.length);
        if (this.failures > 0) this.logger.info({ after: this.failures }, 'event log reachable again: recording bot requests');
        this.failures = 0;
      } catch (error) {
        // A rejected append may have stored part of the batches; the explorer folds duplicates by event id.
        this.countDropped(this.buffer.putBack(batches));
        this.failures += 1;
        this.retryAt = Date.now() + Math.min(MAX_RETRY_DELAY_MS, 100 * 2 ** Math.min(this.failures, 6));
        if (this.failures === 1) this.logger.warn({ err: error, buffered: this.buffer.size }, 'event log refused bot requests: buffering and retrying');
        return;
      } finally {
        this.appendingBatches = [];
        this.appending = 0;
      }
    }
  }

  /** The oldest sealed batches, up to MAX_BATCHES_PER_APPEND. */
  private takeBatches(limit = MAX_BATCHES_PER_APPEND): (readonly BotRequestRecorded[])[] {
    const batches: (readonly BotRequestRecorded[])[] = [];
    while (batches.length < limit) {
      const batch = this.buffer.take();
      if (batch === undefined) break;
      batches.push(batch);
    }
    return batches;
  }

  /** Every sealed batch. */
  private takeAll(): (readonly BotRequestRecorded[])[] {
    return this.takeBatches(Number.POSITIVE_INFINITY);
  }

  private countDropped(n: number): void {
    if (n === 0) return;
    this.dropped.inc(n);
    this.droppedSinceLog += n;
    if (this.droppedSinceLog === n) {
      this.logger.error({ capacity: this.buffer.capacity }, 'bot request buffer full: dropping the oldest unrecorded requests');
      setTimeout(() => {
        if (this.droppedSinceLog > 0) this.logger.error({ dropped: this.droppedSinceLog }, 'bot requests dropped unrecorded (buffer full)');
        this.droppedSinceLog = 0;
      }, 10_000).unref();
    }
  }
}

/** Waits for `work` to settle (its outcome is the caller's business) or for `deadline`, whichever comes first. */
async function settledBy(work: Promise<unknown> | undefined, deadline: number): Promise<void> {
  if (work !== undefined) await settlesWithin(work, deadline - Date.now());
}
