import { framablePayload, FramedPartition, frameRecords, groupByPartition } from '@bpc/event-log';
import { encodeRecordedBotRequests, RecordedBotRequestColumns } from '@bpc/events';

/**
 * The events of batches of recorded bot requests, in their order,
 * serialised and framed for the file event log, per partition of their
 * website's key, numbered from each partition's `nextOffsets[p]` (see
 * `FileEventLog.appendFramed`): all of a flush's per-request work, done off
 * the thread that serves bots.
 */
export function frameRecordedBotRequests(batches: readonly RecordedBotRequestColumns[], nextOffsets: readonly number[]): FramedPartition[] {
  const byPartition = new Map<number, Buffer[]>();
  for (const requests of batches) {
    const { bytes, ends, keys } = encodeRecordedBotRequests(requests);
    const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const payloadOf = (i: number) => framablePayload(all.subarray(i === 0 ? 0 : ends[i - 1], ends[i]));
    for (const [partition, list] of groupByPartition(keys.length, (i) => keys[i], payloadOf, nextOffsets.length)) {
      const earlier = byPartition.get(partition);
      if (earlier) earlier.push(...list);
      else byPartition.set(partition, list);
    }
  }
  return [...byPartition].map(([partition, list]) => ({ partition, records: frameRecords(list, nextOffsets[partition]) }));
}
