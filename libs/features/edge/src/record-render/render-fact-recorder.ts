import { Inject, Injectable, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { newRenderRecorded, RENDER_RECORDED, RenderRecorded, RenderRecordedPayload, TOPICS } from '@bpc/events';
import { APP_CONFIG, CLOCK, LOGGER, METRICS_REGISTRY } from '@bpc/platform';
import type { Logger } from 'pino';
import { Counter, Registry } from 'prom-client';
import { RECORDER_SHUTDOWN_FLUSH_MS } from '../record-bot-request/bot-request-recorder';
import { EventRecorder } from '../record-events/event-recorder';
import { EventSpill, SpillKind } from '../record-events/event-spill';

/** Longest the shutdown flush keeps trying an unreachable log (as the bot request recorder's). */
const SHUTDOWN_FLUSH_MS = 10_000;
/** Facts per append. */
const APPEND_MAX = 1_000;

export const RENDER_FACT_SPILL: SpillKind = { prefix: 'render-facts', type: RENDER_RECORDED, noun: 'render facts' };

/** The edge's spill of render facts (`<data_dir>/edge-spill/render-facts-…`), a provider of its own. */
export class RenderFactSpill extends EventSpill<RenderRecorded> {}

/**
 * Records the edge's miss renders and fetches as `RenderRecorded` facts
 * without holding up any answer, the way bot requests are recorded (one
 * `EventRecorder` each): `record` only buffers; a timer appends every
 * `edge.record_flush_ms`, retried with backoff while the log refuses (at
 * most `edge.record_buffer_max` facts kept, the oldest dropped, counted); at
 * shutdown what the log still refuses after 10 s is spilled to disk and
 * appended at the next start.
 *
 * Misses are far fewer than bot requests (one fact per render, not per
 * request): appends of up to 1,000 facts, one batch each.
 */
@Injectable()
export class RenderFactRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly events: EventRecorder<RenderRecorded>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(EVENT_LOG) log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Optional() @Inject(RenderFactSpill) spill?: RenderFactSpill,
    @Optional() @Inject(RECORDER_SHUTDOWN_FLUSH_MS) shutdownFlushMs: number = SHUTDOWN_FLUSH_MS,
  ) {
    this.events = new EventRecorder<RenderRecorded>({
      topic: TOPICS.renders,
      log,
      logger,
      bufferMax: config.edge.record_buffer_max,
      batchMax: APPEND_MAX,
      batchesPerAppend: 1,
      flushMs: config.edge.record_flush_ms,
      shutdownFlushMs,
      spill,
      dropped: new Counter({ name: 'bpc_edge_render_facts_dropped_total', help: 'Edge render facts (RenderRecorded) dropped unrecorded because the buffer was full', registers: [registry] }),
      appended: new Counter({ name: 'bpc_edge_render_facts_total', help: 'Edge render facts (RenderRecorded) appended to the event log', registers: [registry] }),
      noun: 'render facts',
      bufferFullMessage: 'render fact buffer full: dropping the oldest unrecorded facts',
    });
  }

  onModuleInit(): void {
    this.events.start();
  }

  /** Buffers one fact (it occurred now); never waits, never throws. */
  record(payload: RenderRecordedPayload): void {
    this.events.add(newRenderRecorded(payload, this.clock.now()));
  }

  /** Facts not yet appended. */
  pending(): number {
    return this.events.pending();
  }

  /** Appends what is buffered; a running flush is joined. */
  flush(): Promise<void> {
    return this.events.flush();
  }

  onApplicationShutdown(): Promise<void> {
    return this.events.stop();
  }
}
