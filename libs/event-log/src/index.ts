export * from './event-log.port';
export { FileEventLog } from './file-event-log';
export type { FileEventLogOptions } from './file-event-log';
export { KafkaEventLog } from './kafka-event-log';
export type { KafkaEventLogOptions } from './kafka-event-log';
export { partitionForKey } from './partitioner';
export type { BackoffOptions } from './backoff';
export { NamespacedEventLog } from './namespaced-event-log';
