import type { EventEnvelope } from '@bpc/events';
import type { EventLog, LogBatch, Subscription, SubscriptionSpec } from './event-log.port';

/**
 * Prefixes topic and consumer-group names, so several deployments (or test
 * suites) can share one Kafka cluster without seeing each other's events.
 * Records are delivered under their logical topic names.
 */
export class NamespacedEventLog implements EventLog {
  constructor(
    private readonly inner: EventLog,
    private readonly namespace: string,
  ) {}

  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    return this.inner.append(this.physical(topic), events);
  }

  subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    const { startAt } = spec;
    return this.inner.subscribe({
      ...spec,
      groupId: this.physical(spec.groupId),
      topics: spec.topics.map((t) => this.physical(t)),
      startAt: startAt && ((topic, partition) => startAt(this.logical(topic), partition)),
      handleBatch: (batch: LogBatch) =>
        spec.handleBatch({
          ...batch,
          topic: this.logical(batch.topic),
          records: batch.records.map((r) => ({ ...r, topic: this.logical(r.topic) })),
        }),
    });
  }

  check(): Promise<void> {
    return this.inner.check();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private physical(name: string): string {
    return `${this.namespace}.${name}`;
  }

  private logical(name: string): string {
    return name.startsWith(`${this.namespace}.`) ? name.slice(this.namespace.length + 1) : name;
  }
}
