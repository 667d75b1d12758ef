import type { EventDefinition } from './event-definition';
import { QUEUE_EVENT_CATALOG, QueueEvent } from './queue/queue-events';
import { EXPLORER_EVENT_CATALOG, ExplorerEvent } from './explorer/explorer-events';
import { IDENTITY_EVENT_CATALOG, IdentityEvent } from './identity/identity-events';
import { EXPORT_EVENT_CATALOG, ExportEvent } from './exports/export-events';

/**
 * Every event the service records, one union per topic family: each
 * projector switches exhaustively over its own union, so adding an event
 * fails compilation where it is not handled.
 */
export type DomainEvent = QueueEvent
  | ExplorerEvent
  | IdentityEvent
  | ExportEvent;
export type DomainEventType = DomainEvent['type'];

/** The published contract: what downstream consumers of the topics can rely on. */
export const EVENT_CATALOG: Readonly<Record<string, EventDefinition>> = {
  ...QUEUE_EVENT_CATALOG,
  ...EXPLORER_EVENT_CATALOG,
  ...IDENTITY_EVENT_CATALOG,
  ...EXPORT_EVENT_CATALOG,
};

/** Narrows a record read from the log to a known event, or undefined for types or versions this build does not know. */
export function asDomainEvent(event: { type: string; version: number }): DomainEvent | undefined {
  const definition = EVENT_CATALOG[event.type];
  return definition && definition.version === event.version ? (event as DomainEvent) : undefined;
}

/** The same narrowing for the queue topic. */
export function asQueueEvent(event: { type: string; version: number }): QueueEvent | undefined {
  const definition = (QUEUE_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as QueueEvent) : undefined;
}
