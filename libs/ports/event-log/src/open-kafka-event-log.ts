import type { EventLog } from './event-log.port';
import { KafkaEventLog, KafkaEventLogOptions } from './kafka-event-log';
import { NamespacedEventLog } from './namespaced-event-log';

export interface OpenKafkaEventLogOptions extends KafkaEventLogOptions {
  /** Prefix of topic and consumer-group names (`<namespace>.<topic>`); empty or absent = none. */
  readonly namespace?: string;
}

/** A Kafka event log, wrapped in a `NamespacedEventLog` when a namespace is given (its off-thread topics named as the inner log sees them). */
export function openKafkaEventLog({ namespace, ...options }: OpenKafkaEventLogOptions): EventLog {
  const offThread = namespace && options.offThread && { ...options.offThread, topics: options.offThread.topics.map((topic) => `${namespace}.${topic}`) };
  const kafka = new KafkaEventLog(offThread ? { ...options, offThread } : options);
  return namespace ? new NamespacedEventLog(kafka, namespace) : kafka;
}
