import { Inject, Injectable, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { newRenderRecorded, RENDER_RECORDED, RenderRecorded, RenderRecordedPayload, TOPICS } from '@bpc/events';
import { APP_CONFIG, CLOCK, LOGGER, METRICS_REGISTRY, settlesWithin } from '@bpc/platform';
import type { Logger } from 'pino';
import { Counter, Registry } from 'prom-client';
import { RECORDER_SHUTDOWN_FLUSH_MS } from '../record-bot-request/bot-request-recorder';
import { EventSpill, SpillKind } from '../record-bot-request/bot-request-spill';

/** Longest the shutdown flush keeps trying an unreachable log (as the bot request recorder's). */
const SHUTDOWN_FLUSH_MS = 10_000;
const MAX_RETRY_DELAY_MS = 5_000;
/** Facts per append. */
const APPEND_MAX = 1_000;

export const RENDER_FACT_SPILL: SpillKind = { prefix: 'render-facts', type: RENDER_RECORDED, noun: 'render facts' };

/** The edge's spill of render facts (`<data_dir>/edge-spill/render-facts-…`), a provider of its own. */
export class RenderFactSpill extends EventSpill<RenderRecorded> {}

/**
 * Records the edge's miss renders and fetches as `RenderRecorded` facts
 * without holding up any answer, the way bot requests are recorded (see
 * `BotRequestRecorder`): `record` only buffers; a timer appends every
 * `edge.record_flush_ms`, one append in flight, retried with backoff while
 * the log refuses (the buffer keeps at most `edge.record_buffer_max` facts,
 * dropping the oldest, counted); at shutdown the buffer is flushed for up to
 * 10 s and what the log still refuses is spilled to disk and appended at
 * the next start. Ids are fixed when a fact is recorded, so an append
 * repeated after a refusal is folded by the projection.
 *
 * Misses are far fewer than bot requests (one fact per render, not per
 * request), so this goes straight to the event log port: no batching of its
 * own beyond the flush, no worker thread.
 */
@Injectable()
export class RenderFactRecorder implements OnModuleInit, OnApplicationShutdown {
  private buffer: RenderRecorded[] = [];
  private appending: readonly RenderRecorded[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private failures = 0;
  private retryAt = 0;
  private readonly stopReplay = new AbortController();
  private replaying?: Promise<void>;
  private readonly dropped: Counter;
  private readonly appended: Counter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Optional() @Inject(RenderFactSpill) private readonly spill?: RenderFactSpill,
    @Optional() @Inject(RECORDER_SHUTDOWN_FLUSH_MS) private readonly shutdownFlushMs: number = SHUTDOWN_FLUSH_MS,
  ) {
    this.dropped = new Counter({ name: 'bpc_edge_render_facts_dropped_total', help: 'Edge render facts (RenderRecorded) dropped unrecorded because the buffer was full', registers: [registry] });
    this.appended = new Counter({ name: 'bpc_edge_render_facts_total', help: 'Edge render facts (RenderRecorded) appended to the event log', registers: [registry] });
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.edge.record_flush_ms);
    this.timer.unref();
    this.replaying = this.spill?.replay(this.stopReplay.signal);
  }

  /** Buffers one fact (it occurred now); never waits, never throws. */
  record(payload: RenderRecordedPayload): void {
    this.buffer.push(newRenderRecorded(payload, this.clock.now()));
    const over = this.buffer.length - this.config.edge.record_buffer_max;
    if (over > 0) {
      this.buffer.splice(0, over);
      this.dropped.inc(over);
      this.logger.error({ dropped: over }, 'render fact buffer full: dropping the oldest unrecorded facts');
    }
  }

  /** Facts not yet appended. */
  pending(): number {
    return this.buffer.length + this.appending.length;
  }

  /** Appends what is buffered; a running flush is joined. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.stopReplay.abort();
    const deadline = Date.now() + this.shutdownFlushMs;
    if (this.replaying) await settlesWithin(this.replaying, deadline - Date.now());
    this.retryAt = 0;
    while (Date.now() < deadline && this.pending() > 0) {
      await settlesWithin(this.flush(), deadline - Date.now());
      if (this.pending() > 0) await settlesWithin(new Promise((r) => setTimeout(r, Math.min(200, Math.max(0, this.retryAt - Date.now())))), deadline - Date.now());
    }
    if (this.pending() > 0) await this.spillUnrecorded();
  }

  private async drain(): Promise<void> {
    if (Date.now() < this.retryAt) return;
    while (this.buffer.length > 0) {
      const events = this.buffer.splice(0, APPEND_MAX);
      this.appending = events;
      try {
        await this.log.append(TOPICS.renders, events);
        this.appended.inc(events.length);
        if (this.failures > 0) this.logger.info({ after: this.failures }, 'event log reachable again: recording render facts');
        this.failures = 0;
      } catch (error) {
        this.buffer.unshift(...events);
        this.failures += 1;
        this.retryAt = Date.now() + Math.min(MAX_RETRY_DELAY_MS, 100 * 2 ** Math.min(this.failures, 6));
        if (this.failures === 1) this.logger.warn({ err: error, buffered: this.buffer.length }, 'event log refused render facts: buffering and retrying');
        return;
      } finally {
        this.appending = [];
      }
    }
  }

  /** What the log did not take, to disk for the next start (an append still in flight included: its facts keep their ids). */
  private async spillUnrecorded(): Promise<void> {
    const events = [...this.appending, ...this.buffer.splice(0)];
    let spilled = 0;
    let spillError: string | undefined;
    if (this.spill) spilled = await this.spill.write(events).catch((error: unknown) => ((spillError = error instanceof Error ? error.message : String(error)), 0));
    if (spilled > 0) this.logger.warn({ spilled }, 'event log unreachable at shutdown: render facts spilled to disk, appended at the next start');
    if (spilled < events.length) this.logger.error({ lost: events.length - spilled, spillError }, 'event log unreachable at shutdown: render facts not recorded');
  }
}
