import { EventTooLargeError, FramedPartition, frameRecords, MAX_PAYLOAD_BYTES, partitionForKey } from '@bpc/event-log';
import { encodeRecordedBotRequests, RecordedBotRequestColumns } from '@bpc/events';

/**
 * The events of recorded bot requests, serialised and framed for the file
 * event log, per partition of their website's key, numbered from each
 * partition's `nextOffsets[p]` (see `FileEventLog.appendFramed`): all of a
 * flush's per-request work, done off the thread that serves bots.
 */
export function frameRecordedBotRequests(requests: RecordedBotRequestColumns, nextOffsets: readonly number[]): FramedPartition[] {
  const batch = encodeRecordedBotRequests(requests);
  const all = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
  const payloads = new Map<number, Buffer[]>();
  const partitionOf = new Map<string, number>();
  for (let i = 0, start = 0; i < batch.ids.length; start = batch.ends[i], i++) {
    const key = batch.keys[i];
    let partition = partitionOf.get(key);
    if (partition === undefined) {
      partition = partitionForKey(key, nextOffsets.length);
      partitionOf.set(key, partition);
    }
    const payload = all.subarray(start, batch.ends[i]);
    if (payload.length > MAX_PAYLOAD_BYTES) throw new EventTooLargeError(payload.length, MAX_PAYLOAD_BYTES);
    const list = payloads.get(partition);
    if (list) list.push(payload);
    else payloads.set(partition, [payload]);
  }
  return [...payloads].map(([partition, list]) => ({ partition, records: frameRecords(list, nextOffsets[partition]) }));
}
