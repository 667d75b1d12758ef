import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Logger } from 'pino';
import { asExplorerEvent, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog, LogBatch, Subscription } from '@bpc/event-log';
import { EXPLORER_STORE, ExplorerStore } from '@bpc/explorer-store';
import { LOGGER, METRICS_REGISTRY } from '@bpc/platform';
import { explorerRows, TableRows } from './explorer-projection';

/** One group per topic, so a slow search import never holds up bot requests (a subscription handles one batch at a time). */
export const EXPLORER_PROJECTOR_GROUPS = { botRequests: 'explorer-projector-bot-requests', searchPerformance: 'explorer-projector-search-performance' } as const;
/** Records per insert: big batches are what ClickHouse wants; the log hands over what is available up to this. */
export const EXPLORER_BATCH_SIZE = 20_000;

/**
 * Bot requests and search performance from the log into ClickHouse.
 *
 * Exactly-once counts: each delivered batch is inserted with a deduplication
 * token made of its log positions (a retried batch is dropped by the engine),
 * and the tables are ReplacingMergeTree keyed by event id / day key, so a
 * batch re-formed with other boundaries after a crash between insert and
 * offset commit folds away too (exact reads use FINAL). The offset is
 * committed only after the insert resolves; a failed insert stops the
 * partition for a retry, nothing is skipped.
 */
@Injectable()
export class ExplorerProjector implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscribing?: Promise<Subscription[]>;
  private readonly projected?: Counter<'table'>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(LOGGER) private readonly logger: Logger,
    // Present when the app serves /metrics (MetricsModule); the projector works without it.
    @Optional() @Inject(METRICS_REGISTRY) registry?: Registry,
  ) {
    if (registry) {
      this.projected = new Counter({ name: 'bpc_explorer_projected_rows_total', help: 'Rows the explorer projector inserted into ClickHouse, per table.', labelNames: ['table'], registers: [registry] });
      const lag = () => this.lag();
      new Gauge({
        name: 'bpc_explorer_projection_lag_events',
        help: 'Bot-request and search-performance events in the log not yet in ClickHouse.',
        registers: [registry],
        async collect() {
          this.set(await lag());
        },
      });
    }
  }

  /** Joins without holding up startup: joining a Kafka group takes seconds, and nothing waits on this projection to start. */
  onApplicationBootstrap(): void {
    this.subscribing = Promise.all(
      (['botRequests', 'searchPerformance'] as const).map((topic) =>
        this.log.subscribe({
          groupId: EXPLORER_PROJECTOR_GROUPS[topic],
          topics: [TOPICS[topic]],
          handleBatch: (batch) => this.apply(batch),
          maxBatchSize: EXPLORER_BATCH_SIZE,
        }),
      ),
    );
    this.subscribing.catch((error) => this.logger.error({ err: error }, 'explorer projector could not subscribe'));
  }

  async onApplicationShutdown(): Promise<void> {
    const subscriptions = await this.subscribing?.catch(() => []);
    await Promise.all((subscriptions ?? []).map((s) => s.stop()));
  }

  /** Events appended but not yet in ClickHouse. */
  lag(): Promise<number> {
    return this.subscribing?.then(async (all) => (await Promise.all(all.map((s) => s.lag()))).reduce((a, b) => a + b, 0)) ?? Promise.resolve(0);
  }

  private async apply(batch: LogBatch): Promise<void> {
    if (batch.records.length === 0) return;
    const tables: TableRows = new Map();
    for (const record of batch.records) {
      const event = asExplorerEvent(record.event);
      if (!event) {
        this.logger.warn({ topic: batch.topic, partition: batch.partition, offset: record.offset, type: record.event.type }, 'explorer projector: unknown event skipped');
        continue;
      }
      explorerRows(event, tables);
    }
    const positions = `${batch.topic}:${batch.partition}:${batch.records[0].offset}-${batch.records[batch.records.length - 1].offset}`;
    for (const [table, rows] of tables) {
      await this.store.insert({ table, rows, token: `${table}@${positions}` });
      this.projected?.inc({ table }, rows.length);
    }
  }
}
