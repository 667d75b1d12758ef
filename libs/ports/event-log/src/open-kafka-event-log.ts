import type { EventLog } from './event-log.port';
import { KafkaEventLog, KafkaEventLogOptions } from './kafka-event-log';
import { NamespacedEventLog } from './namespaced-event-log';

export interface OpenKafkaEventLogOptions extends KafkaEventLogOptions {
  /** Prefix of topic and consumer-group names (`<namespace>.<topic>`); empty or absent = none. */
  readonly namespace?: string;
}

/** A Kafka event log, wrapped in a `NamespacedEventLog` when a namespace is given. */
export function openKafkaEventLog({ namespace, ...options }: OpenKafkaEventLogOptions): EventLog {
  const kafka = new KafkaEventLog(options);
  return namespace ? new NamespacedEventLog(kafka, namespace) : kafka;
}
