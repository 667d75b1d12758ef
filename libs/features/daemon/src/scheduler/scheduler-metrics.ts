import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Clock, HostCatalog, PRIORITIES } from '@bpc/domain';
import { CLOCK, METRICS_REGISTRY, scrapeSafeCollect } from '@bpc/platform';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { PAGE_REFRESHER, PageRefresher } from '@bpc/renderer';

/**
 * The daemon's Prometheus metrics: queue depth per host and priority and
 * tab usage are read live at scrape time (queue depth keeps its last value
 * while the queue store cannot be read); attempts are counted as they end.
 */
@Injectable()
export class SchedulerMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly duration: Histogram<'outcome'>;

  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(QUEUE_STORE) store: QueueStore,
    @Inject(PAGE_REFRESHER) refresher: PageRefresher,
    @Inject(CLOCK) clock: Clock,
    hosts: HostCatalog,
  ) {
    this.attempts = new Counter({ name: 'bpc_recache_attempts_total', help: 'Recache attempts by outcome (stored, kept, failed).', labelNames: ['outcome'], registers: [registry] });
    this.duration = new Histogram({
      name: 'bpc_recache_attempt_duration_seconds',
      help: 'Duration of recache attempts.',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
    const queueEntries: Gauge<'host' | 'priority' | 'state'> = new Gauge({
      name: 'bpc_queue_entries',
      help: 'Queued recache entries per host and priority; state total or due_now.',
      labelNames: ['host', 'priority', 'state'],
      registers: [registry],
      collect: scrapeSafeCollect(
        () => store.counts(clock.now(), hosts.hostIds()),
        (counts) => {
          for (const [host, byPriority] of counts) {
            for (const priority of PRIORITIES) {
              queueEntries.set({ host: String(host), priority, state: 'total' }, byPriority[priority].total);
              queueEntries.set({ host: String(host), priority, state: 'due_now' }, byPriority[priority].due_now);
            }
          }
        },
      ),
    });
    new Gauge({
      name: 'bpc_render_tabs',
      help: 'Render-service tabs: total, free, reserved_for_online, available_for_recache.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const capacity = refresher.capacity();
        this.set({ state: 'total' }, capacity.tabs);
        this.set({ state: 'free' }, capacity.freeTabs);
        this.set({ state: 'reserved_for_online' }, capacity.reservedForOnline);
        this.set({ state: 'available_for_recache' }, capacity.availableForRecache);
      },
    });
  }

  attemptFinished(outcome: 'stored' | 'kept' | 'failed', durationMs: number): void {
    this.attempts.inc({ outcome });
    this.duration.observe({ outcome }, durationMs / 1000);
  }
}
