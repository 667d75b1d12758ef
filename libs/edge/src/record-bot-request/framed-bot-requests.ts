import { EventTooLargeError, FramedPartition, frameRecords, MAX_PAYLOAD_BYTES, partitionForKey } from '@bpc/event-log';
import { EncodedEventBatch, encodeRecordedBotRequests, RecordedBotRequestColumns } from '@bpc/events';

/**
 * The events of batches of recorded bot requests, in their order,
 * serialised and framed for the file event log, per partition of their
 * website's key, numbered from each partition's `nextOffsets[p]` (see
 * `FileEventLog.appendFramed`): all of a flush's per-request work, done off
 * the thread that serves bots.
 */
export function frameRecordedBotRequests(batches: readonly RecordedBotRequestColumns[], nextOffsets: readonly number[]): FramedPartition[] {
  const payloads = new Map<number, Buffer[]>();
  const partitionOf = new Map<string, number>();
  for (const requests of batches) addPayloads(encodeRecordedBotRequests(requests), nextOffsets.length, partitionOf, payloads);
  return [...payloads].map(([partition, list]) => ({ partition, records: frameRecords(list, nextOffsets[partition]) }));
}

/** Each event of `batch` as a payload of its key's partition, in order. */
function addPayloads(batch: EncodedEventBatch, partitions: number, partitionOf: Map<string, number>, payloads: Map<number, Buffer[]>): void {
  const all = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  for (let i = 0, start = 0; i < batch.ids.length; start = batch.ends[i], i++) {
    const key = batch.keys[i];
    let partition = partitionOf.get(key);
    if (partition === undefined) {
      partition = partitionForKey(key, partitions);
      partitionOf.set(key, partition);
    }
    const payload = all.subarray(start, batch.ends[i]);
    if (payload.length > MAX_PAYLOAD_BYTES) throw new EventTooLargeError(payload.length, MAX_PAYLOAD_BYTES);
    const list = payloads.get(partition);
    if (list) list.push(payload);
    else payloads.set(partition, [payload]);
  }
}
