import { randomUUID } from 'node:crypto';
import { envelope } from '../envelope';
import { QUEUE_EVENT_CATALOG, QueueEvent } from './queue-events';

type PayloadOf<T extends QueueEvent['type']> = Extract<QueueEvent, { type: T }>['payload'];

/** A new queue-topic event with a fresh id, its catalogued version, and the time it happened. */
export function newQueueEvent<T extends QueueEvent['type']>(type: T, payload: PayloadOf<T>, key: string, now: number): Extract<QueueEvent, { type: T }> {
  const event = envelope(type, QUEUE_EVENT_CATALOG[type].version, payload, { id: randomUUID(), occurredAt: new Date(now), key });
  return event as unknown as Extract<QueueEvent, { type: T }>;
}
