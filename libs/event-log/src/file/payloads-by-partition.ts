import type { EncodedEvent } from '@bpc/events';
import { groupByPartition } from '../partitioner';
import { framablePayload } from './record-framing';

/** The events' stored bytes grouped by the partition of their key, each group in event order; throws for an event too large to frame. */
export function payloadsByPartition(events: readonly EncodedEvent[], partitions: number): Map<number, Buffer[]> {
  const payloads = events.map((event) => framablePayload(event.json));
  return groupByPartition(events.length, (i) => events[i].key, (i) => payloads[i], partitions);
}
