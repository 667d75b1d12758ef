import type { EncodedEventBatch } from '@bpc/events';
import { EventTooLargeError } from '../event-too-large';
import type { FramedPartition } from '../file-event-log';
import { partitionForKey } from '../partitioner';
import { FRAME_HEADER_BYTES, MAX_PAYLOAD_BYTES, sealFrame } from './record-framing';

/** One partition's frames as they are written. */
interface Part {
  readonly partition: number;
  readonly bytes: Buffer;
  readonly ends: Uint32Array;
  at: number;
  count: number;
}

/**
 * The events of `batches`, in their order, framed per partition of their key
 * (as `payloadsByPartition` and `frameRecords` would frame them), numbered
 * from each partition's `nextOffsets[p]`: each event's JSON is copied from
 * its batch straight into its frame, with no object, buffer view or id
 * string per event (the framing worker of recorded bot requests frames
 * thousands a second). Parts come in the order their partitions first
 * appear; each part's memory is its own. Throws an `EventTooLargeError` for
 * an event a frame cannot hold, framing nothing.
 */
export function frameEncodedBatches(batches: readonly EncodedEventBatch[], nextOffsets: readonly number[]): FramedPartition[] {
  // First pass: each event's partition, and what each partition takes.
  const events = batches.reduce((sum, batch) => sum + batch.ends.length, 0);
  const partitionOfEvent = new Uint32Array(events);
  const bytes = new Array<number>(nextOffsets.length).fill(0);
  const counts = new Array<number>(nextOffsets.length).fill(0);
  const order: number[] = [];
  const partitionOfKey = new Map<string, number>();
  let lastKey: string | undefined;
  let partition = 0;
  let e = 0;
  for (const { ends, keys } of batches) {
    for (let i = 0, start = 0; i < ends.length; start = ends[i], i++, e++) {
      // Consecutive events mostly share their key: no lookup then.
      if (keys[i] !== lastKey) {
        lastKey = keys[i];
        partition = partitionOfKey.get(lastKey) ?? partitionForKey(lastKey, nextOffsets.length);
        partitionOfKey.set(lastKey, partition);
      }
      const length = ends[i] - start;
      if (length > MAX_PAYLOAD_BYTES) throw new EventTooLargeError(length, MAX_PAYLOAD_BYTES);
      if (counts[partition] === 0) order.push(partition);
      partitionOfEvent[e] = partition;
      bytes[partition] += FRAME_HEADER_BYTES + length;
      counts[partition] += 1;
    }
  }
  // Its own memory (never Node's shared pool): it may be transferred to another thread.
  const parts = new Map<number, Part>(order.map((p) => [p, { partition: p, bytes: Buffer.allocUnsafeSlow(bytes[p]), ends: new Uint32Array(counts[p]), at: 0, count: 0 }]));
  // Second pass: the frames.
  e = 0;
  for (const batch of batches) {
    const source = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
    const ends = batch.ends;
    for (let i = 0, start = 0; i < ends.length; start = ends[i], i++, e++) {
      const part = parts.get(partitionOfEvent[e])!;
      source.copy(part.bytes, part.at + FRAME_HEADER_BYTES, start, ends[i]);
      part.at = sealFrame(part.bytes, part.at, nextOffsets[part.partition] + part.count, ends[i] - start);
      part.ends[part.count] = part.at;
      part.count += 1;
    }
  }
  return order.map((p) => {
    const part = parts.get(p)!;
    return { partition: p, records: { firstOffset: nextOffsets[p], bytes: part.bytes, ends: part.ends } };
  });
}
