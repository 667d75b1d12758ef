import type { EventEnvelope } from '@bpc/events';
import { groupByPartition } from '../partitioner';
import { framablePayload } from './record-framing';

/** An event as the file log stores it: its key, and its JSON (the frame's payload). */
export interface KeyedPayload {
  readonly key: string;
  readonly payload: Buffer;
}

/** The events' JSON with their keys; throws, before anything is stored, for an event without a string key or too large to frame. */
export function keyedPayloads(events: readonly EventEnvelope[]): KeyedPayload[] {
  return events.map((event) => {
    if (typeof event.key !== 'string') throw new Error(`event ${event.id} has no string key`);
    return { key: event.key, payload: framablePayload(Buffer.from(JSON.stringify(event), 'utf8')) };
  });
}

/** The payloads grouped by the partition of their key, each group in event order. */
export function payloadsByPartition(events: readonly KeyedPayload[], partitions: number): Map<number, Buffer[]> {
  return groupByPartition(events.length, (i) => events[i].key, (i) => events[i].payload, partitions);
}
