import type { EventDefinition } from './event-definition';
import { QUEUE_EVENT_CATALOG, QueueEvent } from './queue/queue-events';
import { EXPLORER_EVENT_CATALOG, ExplorerEvent } from './explorer/explorer-events';
import { IDENTITY_EVENT_CATALOG, IdentityEvent } from './identity/identity-events';
import { EXPORT_EVENT_CATALOG, ExportEvent } from './exports/export-events';
import { RENDER_EVENT_CATALOG, RenderEvent } from './renders/render-events';
import { ALERT_EVENT_CATALOG, AlertEvent } from './alerts/alert-events';

/**
 * Every event the service records, one union per topic family: each
 * projector switches exhaustively over its own union, so adding an event
 * fails compilation where it is not handled.
 */
export type DomainEvent = QueueEvent
  | ExplorerEvent
  | IdentityEvent
  | ExportEvent
  | RenderEvent
  | AlertEvent;

/** The published contract: what downstream consumers of the topics can rely on. */
export const EVENT_CATALOG: Readonly<Record<string, EventDefinition>> = {
  ...QUEUE_EVENT_CATALOG,
  ...EXPLORER_EVENT_CATALOG,
  ...IDENTITY_EVENT_CATALOG,
  ...EXPORT_EVENT_CATALOG,
  ...RENDER_EVENT_CATALOG,
  ...ALERT_EVENT_CATALOG,
};

/** Narrows a record read from the queue topic to a known event, or undefined for types or versions this build does not know. */
export function asQueueEvent(event: { type: string; version: number }): QueueEvent | undefined {
  const definition = (QUEUE_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as QueueEvent) : undefined;
}

/**
 * A record of a type or version this build does not know, met by a reader
 * that must apply every event of its topic: it stops there (the log retries
 * the batch) instead of skipping it, so the event is applied once the reader
 * runs a build that knows it. Upgrade readers before writers.
 */
export class UnknownEventError extends Error {
  override readonly name = 'UnknownEventError';

  constructor(reader: string, event: { readonly type: string; readonly version: number }, where: string) {
    super(`${reader}: ${where} holds ${event.type} v${event.version}, which this build does not know; stopped there until a build that knows it runs`);
  }
}

/** A batch of records read from the log, as far as `knownEventsOf` needs it. */
interface RecordBatch {
  readonly topic: string;
  readonly partition: number;
  readonly records: readonly { readonly offset: string; readonly event: { readonly type: string; readonly version: number } }[];
}

/** Every event of the batch, narrowed by `narrow`; throws UnknownEventError at the first it does not know, before anything is applied. */
export function knownEventsOf<E>(reader: string, batch: RecordBatch, narrow: (event: { type: string; version: number }) => E | undefined): E[] {
  return batch.records.map((record) => {
    const event = narrow(record.event);
    if (event === undefined) throw new UnknownEventError(reader, record.event, `${batch.topic}:${batch.partition}@${record.offset}`);
    return event;
  });
}
