import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Logger } from 'pino';
import { asExplorerEvent, asRenderEvent, type RenderRecorded, TOPICS, UnknownEventError } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import type { IssueThresholds } from '@bpc/domain';
import { retryInBackground } from '@bpc/support';
import { BufferedExplorerWriter, checkpointOf, EXPLORER_STORE, ExplorerStore, JsonLines, RENDER_RECORDED_EVENTS_TABLE } from '@bpc/explorer-store';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, FailureStreakLog, LOGGER, METRICS_REGISTRY, ReadinessRegistry, scrapeSafeCollect, SERVING_LOAD, ServingLoad } from '@bpc/platform';
import { explorerRows, intakeOfStored, landsIn, push, type TableRows } from './explorer-projection';
import { issueThresholdsByHost, pageRows } from './page-projection';
import { YieldToServing } from './yield-to-serving';

/** One group per topic, so a slow search import never holds up bot requests (a subscription handles one batch at a time). */
export const EXPLORER_PROJECTOR_GROUPS = {
  botRequests: 'explorer-projector-bot-requests',
  searchPerformance: 'explorer-projector-search-performance',
  renders: 'explorer-projector-renders',
} as const;
/** Records per log batch handed over. */
export const EXPLORER_BATCH_SIZE = 20_000;
/**
 * Inserts are gathered up to this many rows or this long, whichever comes
 * first. About one insert per second, as ClickHouse advises: every insert is
 * a new part that background merges rewrite, so at bot traffic rates the
 * engine's CPU per row roughly halves from 200 ms batches to 1 s batches.
 */
export const EXPLORER_FLUSH = { maxRows: 100_000, maxDelayMs: 1_000 } as const;

type ExplorerTopic = keyof typeof EXPLORER_PROJECTOR_GROUPS;
const EXPLORER_TOPICS: readonly ExplorerTopic[] = ['botRequests', 'searchPerformance', 'renders'];

/**
 * Bot requests, search performance and the render history (`RenderRecorded`
 * into `render_outcomes`) from the log into ClickHouse. Each event becomes
 * its rows (`explorerRows`). Bot requests and render facts (nearly every
 * event) go to intake tables whose views map them, as the JSON the log holds
 * when its first bytes name their type and version (`intakeOfStored`): this
 * process then neither parses nor re-serialises them (doing so made the
 * projection 30–50 % slower in a paired bench: bench/RESULTS.md).
 *
 * Batches are size- and time-bounded (EXPLORER_FLUSH) and span several log
 * batches; each partition resumes from the projector's own checkpoint in
 * ClickHouse, written after the rows it covers (see BufferedExplorerWriter).
 *
 * Exactly-once counts: each insert carries a deduplication token made of its
 * log positions (a retried write is dropped by the engine), and the tables
 * are ReplacingMergeTree keyed by event id / day key, so rows written again
 * after a crash between insert and checkpoint, in other batch boundaries,
 * fold away too (exact reads use FINAL). A failed write is retried and holds
 * up the partition; nothing is skipped.
 *
 * In standalone mode, where the edge serves bots from this process, the
 * projection pauses while serving is saturated (`YieldToServing`, up to
 * `edge.projection_pause_max_ms`), and catches up after.
 *
 * A topic that cannot be subscribed (Kafka unreachable at startup) is tried
 * again with backoff until it is or the app stops; meanwhile `lag()` rejects
 * with the reason, so readiness reports the projection down.
 */
@Injectable()
export class ExplorerProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly subscriptions = new Map<ExplorerTopic, Subscription>();
  /** Why a topic is not subscribed, once an attempt failed; cleared when it is. */
  private readonly failures = new Map<ExplorerTopic, Error>();
  private readonly stopping = new AbortController();
  private readonly subscribing: Promise<unknown>[] = [];
  /** Settles when every topic's first attempt has ended, either way. */
  private firstAttempts?: Promise<void>;
  private readonly projected?: Counter<'table'>;
  private readonly writers: BufferedExplorerWriter[] = [];
  private readonly pausedSeconds?: Counter;
  /** Each host's SEO issue thresholds (its website's `seo` settings), for the `pages` rows. */
  private readonly issueThresholds: ReadonlyMap<number, IssueThresholds>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: ReadinessRegistry,
    // Present when the app serves /metrics (MetricsModule); the projector works without it.
    @Optional() @Inject(METRICS_REGISTRY) registry?: Registry,
    // Present in the apps' processes: the edge announces there that it serves (see YieldToServing).
    @Optional() @Inject(SERVING_LOAD) private readonly servingLoad?: ServingLoad,
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
  ) {
    this.issueThresholds = issueThresholdsByHost(config);
    readiness.add({ name: 'projection (explorer)', check: async () => ({ lag: await this.lag() }) });
    if (registry) {
      this.pausedSeconds = new Counter({ name: 'bpc_explorer_projection_paused_seconds_total', help: 'Time the explorer projection paused for saturated serving in its process (standalone mode).', registers: [registry] });
      this.projected = new Counter({ name: 'bpc_explorer_projected_rows_total', help: 'Rows the explorer projector inserted into ClickHouse, per table.', labelNames: ['table'], registers: [registry] });
      const lag: Gauge = new Gauge({
        name: 'bpc_explorer_projection_lag_events',
        help: 'Bot-request, search-performance and render events in the log not yet in ClickHouse (the last value read; NaN before the first).',
        registers: [registry],
        collect: scrapeSafeCollect(
          () => this.lag(),
          (events) => lag.set(events),
        ),
      });
      // Unknown until first read: 0 would read as caught up.
      lag.set(NaN);
    }
  }

  /** Joins without holding up startup: joining a Kafka group takes seconds, and nothing waits on this projection to start. */
  onApplicationBootstrap(): void {
    const firstAttempts = EXPLORER_TOPICS.map((topic) => {
      const inserted = (table: string, rows: number) => this.projected?.inc({ table: landsIn(table) }, rows);
      const writer = new BufferedExplorerWriter(this.store, this.logger, EXPLORER_FLUSH, inserted);
      this.writers.push(writer);
      const { firstAttempt, done } = this.subscribeUntilDone(topic, writer);
      this.subscribing.push(done);
      return firstAttempt;
    });
    this.firstAttempts = Promise.all(firstAttempts).then(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    // Failing writes stop retrying first: a batch parked behind one would otherwise hold up stopping its subscription.
    this.writers.forEach((w) => w.stopRetrying());
    await Promise.all(this.subscribing);
    await Promise.all([...this.subscriptions.values()].map((s) => s.stop()));
    await Promise.all(this.writers.map((w) => w.close()));
  }

  /** Writes what is buffered now (tests and benches that need the rows at once). */
  async flush(): Promise<void> {
    await Promise.all(this.writers.map((w) => w.flush()));
  }

  /**
   * Events appended but not yet in ClickHouse: unread in the log plus rows
   * buffered for the next insert. Waits for the first attempt to subscribe;
   * rejects while a topic is not subscribed (the lag is then unknown, not 0).
   */
  async lag(): Promise<number> {
    if (!this.firstAttempts) throw new Error('explorer projector not started');
    await this.firstAttempts;
    const missing = EXPLORER_TOPICS.filter((topic) => !this.subscriptions.has(topic));
    if (missing.length > 0) {
      throw new Error(`explorer projector not subscribed to ${missing.map((topic) => `${TOPICS[topic]} (${this.failures.get(topic)?.message ?? 'subscribing'})`).join(', ')}`);
    }
    const unread = await Promise.all([...this.subscriptions.values()].map((s) => s.lag()));
    return unread.reduce((a, b) => a + b, 0) + this.writers.reduce((sum, w) => sum + w.buffered(), 0);
  }

  /** Subscribes one topic, again and again with backoff until it is subscribed or the app stops (which waits for this to end first). */
  private subscribeUntilDone(topic: ExplorerTopic, writer: BufferedExplorerWriter): { firstAttempt: Promise<void>; done: Promise<unknown> } {
    const failures = new FailureStreakLog(this.logger, 'error', `explorer projector could not subscribe to ${TOPICS[topic]}; retrying until it can`, `explorer projector subscribed to ${TOPICS[topic]}`);
    const subscribed = async (): Promise<void> => {
      // Here, not after the retries: lag() looks as soon as the first attempt ends.
      this.subscriptions.set(topic, await this.subscribe(topic, writer));
      this.failures.delete(topic);
      failures.succeeded();
    };
    return retryInBackground(subscribed, this.stopping.signal, (error) => {
      this.failures.set(topic, error instanceof Error ? error : new Error(String(error)));
      failures.failed(error);
    });
  }

  private subscribe(topic: ExplorerTopic, writer: BufferedExplorerWriter): Promise<Subscription> {
    const yieldToServing = this.yieldToServing(topic, writer);
    return this.log.subscribe({
      groupId: EXPLORER_PROJECTOR_GROUPS[topic],
      topics: [TOPICS[topic]],
      startAt: (t, partition) => checkpointOf(this.store, `${t}:${partition}`),
      handleBatch: async (batch) => {
        await yieldToServing?.turn(this.stopping.signal);
        await this.apply(batch, writer);
        // And before the next batch is read: reading it (its CRCs, on the file log) takes the serving thread's time too.
        await yieldToServing?.turn(this.stopping.signal);
      },
      maxBatchSize: EXPLORER_BATCH_SIZE,
    });
  }

  /**
   * Where the edge may serve from this process; a topic's lag is its
   * subscription's, unknown (behind) until it is subscribed. Its writer
   * holds the rows it gathered while the projection pauses.
   */
  private yieldToServing(topic: ExplorerTopic, writer: BufferedExplorerWriter): YieldToServing | undefined {
    const { servingLoad, config } = this;
    if (!servingLoad || !config) return undefined;
    return new YieldToServing({
      saturated: () => servingLoad.saturated(),
      behind: () => this.subscriptions.get(topic)?.lag() ?? Promise.resolve(Number.POSITIVE_INFINITY),
      maxPauseMs: config.edge.projection_pause_max_ms,
      caughtUpAt: EXPLORER_BATCH_SIZE,
      pausing: () => writer.hold(),
      paused: (ms) => {
        writer.release();
        this.pausedSeconds?.inc(ms / 1000);
      },
    });
  }

  private async apply(batch: LogBatch, writer: BufferedExplorerWriter): Promise<void> {
    if (batch.records.length === 0) return;
    const tables: TableRows = new Map();
    const storedByIntake = new Map<string, Buffer[]>();
    for (const record of batch.records) {
      const stored = record.payload;
      const intake = stored && intakeOfStored(stored);
      if (stored && intake) {
        const list = storedByIntake.get(intake);
        if (list) list.push(stored);
        else storedByIntake.set(intake, [stored]);
        // A render's facts and changes need the domain's issue rules, so its event is parsed here (`record.event` parses on
        // first use): one parse per render, nothing beside the render's own cost; bot requests stay unparsed.
        if (intake === RENDER_RECORDED_EVENTS_TABLE) pageRows(record.event as RenderRecorded, tables, this.issueThresholds);
        continue;
      }
      const event = asExplorerEvent(record.event) ?? asRenderEvent(record.event);
      if (!event) throw new UnknownEventError('explorer projector', record.event, `${batch.topic}:${batch.partition}@${record.offset}`);
      explorerRows(event, tables, this.issueThresholds);
    }
    // One JsonLines per intake and log batch: its bytes wait for the insert, not an object per row.
    for (const [intake, stored] of storedByIntake) push(tables, intake, JsonLines.of(stored));
    const last = batch.records[batch.records.length - 1].offset;
    await writer.add(`${batch.topic}:${batch.partition}`, batch.records[0].offset, (BigInt(last) + 1n).toString(), tables);
  }
}
