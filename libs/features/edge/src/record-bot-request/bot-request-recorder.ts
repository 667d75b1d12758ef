import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { BotRequestRecorded, RecordedBotRequest, recordedBotRequestEvent, TOPICS } from '@bpc/events';
import { APP_CONFIG, LOGGER, METRICS_REGISTRY } from '@bpc/platform';
import type { Logger } from 'pino';
import { Counter, Gauge, Registry } from 'prom-client';
import { EventRecorder } from '../record-events/event-recorder';
import { BotRequestSpill } from './bot-request-spill';

/** Longest the shutdown flush keeps trying an unreachable log. */
const SHUTDOWN_FLUSH_MS = 10_000;
/** Overrides the 10 s of the shutdown flush (tests). */
export const RECORDER_SHUTDOWN_FLUSH_MS = Symbol('RECORDER_SHUTDOWN_FLUSH_MS');
/** Sealed batches handed to one append: on the file log they share one write and one fsync. */
const MAX_BATCHES_PER_APPEND = 16;

/**
 * Records bot requests as `BotRequestRecorded` events without holding up the
 * response: `record` makes the request's event (its id, a random UUID, fixed
 * now) and buffers it; an `EventRecorder` appends batches of up to
 * `edge.record_batch_max` every `edge.record_flush_ms` (up to 16 batches per
 * append) to the event log's bot request topic, retries while the log
 * refuses, keeps at most `edge.record_buffer_max` (dropping the oldest,
 * counted in `bpc_edge_recorded_dropped_total`), and spills what is left at
 * shutdown to a local file (see `BotRequestSpill`) appended at the next
 * start.
 */
@Injectable()
export class BotRequestRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly events: EventRecorder<BotRequestRecorded>;
  private unencodableLogged = false;
  private readonly dropped: Counter;
  private readonly buffered: Gauge;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(EVENT_LOG) log: EventLog,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Optional() @Inject(RECORDER_SHUTDOWN_FLUSH_MS) shutdownFlushMs: number = SHUTDOWN_FLUSH_MS,
    @Optional() @Inject(BotRequestSpill) spill?: BotRequestSpill,
  ) {
    this.dropped = new Counter({ name: 'bpc_edge_recorded_dropped_total', help: 'Bot requests dropped unrecorded because the recording buffer was full', registers: [registry] });
    const appended = new Counter({ name: 'bpc_edge_recorded_total', help: 'Bot requests appended to the event log', registers: [registry] });
    this.buffered = new Gauge({ name: 'bpc_edge_record_buffer_size', help: 'Bot requests waiting for the event log', registers: [registry], collect: () => this.buffered.set(this.pending()) });
    this.events = new EventRecorder<BotRequestRecorded>({
      topic: TOPICS.botRequests,
      log,
      logger,
      bufferMax: config.edge.record_buffer_max,
      batchMax: config.edge.record_batch_max,
      batchesPerAppend: MAX_BATCHES_PER_APPEND,
      flushMs: config.edge.record_flush_ms,
      shutdownFlushMs,
      spill,
      dropped: this.dropped,
      appended,
      noun: 'bot requests',
      bufferFullMessage: 'bot request buffer full: dropping the oldest unrecorded requests',
    });
  }

  onModuleInit(): void {
    this.events.start();
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
    this.events.add(event);
  }

  /** Events not yet appended: buffered, or in the batch being appended. */
  pending(): number {
    return this.events.pending();
  }

  /** Appends what is buffered (see `EventRecorder.flush`). */
  flush(): Promise<void> {
    return this.events.flush();
  }

  /** Flushes for up to 10 s (after the HTTP server stopped), then spills the rest. */
  onApplicationShutdown(): Promise<void> {
    return this.events.stop();
  }
}
