import type { EncodedEventBatch } from '@bpc/events';
import { EventTooLargeError } from '../event-too-large';
import type { FramedPartition } from '../file-event-log';
import { groupByPartition } from '../partitioner';
import { FRAME_HEADER_BYTES, MAX_PAYLOAD_BYTES, sealFrame } from './record-framing';

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
  // Every event of every batch, numbered in order: its batch, and where its JSON lies there.
  const count = batches.reduce((sum, batch) => sum + batch.ends.length, 0);
  const batchOf = new Uint32Array(count);
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  const keys: string[] = [];
  let e = 0;
  batches.forEach((batch, b) => {
    for (let i = 0, start = 0; i < batch.ends.length; start = batch.ends[i], i++, e++) {
      if (batch.ends[i] - start > MAX_PAYLOAD_BYTES) throw new EventTooLargeError(batch.ends[i] - start, MAX_PAYLOAD_BYTES);
      batchOf[e] = b;
      starts[e] = start;
      ends[e] = batch.ends[i];
      keys.push(batch.keys[i]);
    }
  });
  const sources = batches.map(({ bytes }) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const groups = groupByPartition(count, (i) => keys[i], (i) => i, nextOffsets.length);
  return [...groups].map(([partition, events]) => {
    const size = events.reduce((sum, i) => sum + FRAME_HEADER_BYTES + ends[i] - starts[i], 0);
    // Its own memory (never Node's shared pool): it may be transferred to another thread.
    const bytes = Buffer.allocUnsafeSlow(size);
    const frameEnds = new Uint32Array(events.length);
    let at = 0;
    events.forEach((i, n) => {
      sources[batchOf[i]].copy(bytes, at + FRAME_HEADER_BYTES, starts[i], ends[i]);
      at = sealFrame(bytes, at, nextOffsets[partition] + n, ends[i] - starts[i]);
      frameEnds[n] = at;
    });
    return { partition, records: { firstOffset: nextOffsets[partition], bytes, ends: frameEnds } };
  });
}
