import type { JsonSchema } from './json-schema';
import { RECACHE_REQUESTED, RecacheRequested, recacheRequestedSchema } from './queue/recache-requested.event';
import { TOPICS, TopicName } from './topics';

/** Every event the service records. Adding one here makes every exhaustive switch fail until it is handled. */
export type DomainEvent = RecacheRequested;
export type DomainEventType = DomainEvent['type'];

export interface EventDefinition {
  readonly type: DomainEventType;
  readonly version: number;
  readonly topic: TopicName;
  /** What the partition key holds. */
  readonly key: string;
  readonly description: string;
  readonly payload: JsonSchema;
}

/** The published contract: what downstream consumers of the topics can rely on. */
export const EVENT_CATALOG: Readonly<Record<DomainEventType, EventDefinition>> = {
  [RECACHE_REQUESTED]: {
    type: RECACHE_REQUESTED,
    version: 1,
    topic: TOPICS.queue,
    key: 'host id (decimal string)',
    description: 'URLs were queued for recache on a host, for the listed dimensions, at a priority.',
    payload: recacheRequestedSchema,
  },
};

/** Narrows a record read from the log to a known event, or undefined for types or versions this build does not know. */
export function asDomainEvent(event: { type: string; version: number }): DomainEvent | undefined {
  const definition = (EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as DomainEvent) : undefined;
}
