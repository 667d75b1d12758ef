import type { EventEnvelope } from '@bpc/events';
import type { EventLog, LogBatch, Subscription, SubscriptionSpec } from './event-log.port';
import { assertTopicName } from './topic-name';
import { StoredLogRecord } from './stored-log-record';

/**
 * Prefixes topic and consumer-group names with `<namespace>.`, so several
 * deployments (or test runs) can share one Kafka cluster. Callers keep using
 * the plain names: records and `startAt` see the topic without the prefix.
 */
export class NamespacedEventLog implements EventLog {
  private readonly prefix: string;

  constructor(
    private readonly inner: EventLog,
    namespace: string,
  ) {
    assertTopicName(namespace);
    this.prefix = `${namespace}.`;
  }

  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    return this.inner.append(this.prefix + topic, events);
  }

  subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    const { startAt, assigned } = spec;
    return this.inner.subscribe({
      ...spec,
      groupId: this.prefix + spec.groupId,
      topics: spec.topics.map((topic) => this.prefix + topic),
      startAt: startAt && ((topic, partition) => startAt(this.local(topic), partition)),
      assigned: assigned && ((partitions) => assigned(partitions.map(({ topic, partition }) => ({ topic: this.local(topic), partition })))),
      handleBatch: (batch) => spec.handleBatch(this.localBatch(batch)),
    });
  }

  check(): Promise<void> {
    return this.inner.check();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private local(topic: string): string {
    return topic.startsWith(this.prefix) ? topic.slice(this.prefix.length) : topic;
  }

  private localBatch(batch: LogBatch): LogBatch {
    const topic = this.local(batch.topic);
    return { topic, partition: batch.partition, records: batch.records.map((record) => (record instanceof StoredLogRecord ? record.inTopic(topic) : { topic, partition: record.partition, offset: record.offset, event: record.event, payload: record.payload })) };
  }
}
