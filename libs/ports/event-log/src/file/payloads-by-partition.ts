import type { EventEnvelope } from '@bpc/events';
import { groupByPartition } from '../partitioner';
import { framablePayload } from './record-framing';

/** An event as the file log stores it: its key, and its JSON (the frame's payload). */
export interface KeyedPayload {
  readonly key: string;
  readonly payload: Buffer;
}

/**
 * Events encoded between two turns of the event loop: about 0.5 ms of
 * `JSON.stringify` on the machine measured in docs/recording.md, so a
 * request arriving meanwhile waits that long at most, not for the whole
 * append (a flush of bot requests is thousands of events).
 */
export const ENCODE_SLICE = 256;

/** The events' JSON with their keys; throws, before anything is stored, for an event without a string key or too large to frame. */
export function keyedPayloads(events: readonly EventEnvelope[]): KeyedPayload[] {
  return events.map(keyedPayload);
}

/**
 * `keyedPayloads` in slices of `slice` events, yielding to the event loop
 * (`setImmediate`: I/O first, so waiting requests are served) between two;
 * rejects, as `keyedPayloads` throws, before anything is stored.
 */
export async function keyedPayloadsInSlices(events: readonly EventEnvelope[], slice = ENCODE_SLICE): Promise<KeyedPayload[]> {
  const payloads: KeyedPayload[] = new Array<KeyedPayload>(events.length);
  for (let start = 0; start < events.length; start += slice) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = Math.min(events.length, start + slice);
    for (let i = start; i < end; i++) payloads[i] = keyedPayload(events[i]);
  }
  return payloads;
}

function keyedPayload(event: EventEnvelope): KeyedPayload {
  if (typeof event.key !== 'string') throw new Error(`event ${event.id} has no string key`);
  return { key: event.key, payload: framablePayload(Buffer.from(JSON.stringify(event), 'utf8')) };
}

/** The payloads grouped by the partition of their key, each group in event order. */
export function payloadsByPartition(events: readonly KeyedPayload[], partitions: number): Map<number, Buffer[]> {
  return groupByPartition(events.length, (i) => events[i].key, (i) => events[i].payload, partitions);
}
