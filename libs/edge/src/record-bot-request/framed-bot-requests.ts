import { FRAME_HEADER_BYTES, FramedPartition, groupByPartition, sealFramesInPlace } from '@bpc/event-log';
import { addRecordedBotRequest, BotRequestEventIds, BotRequestJsonBatch, RecordedBotRequestColumns, requestCount, websiteIdAt } from '@bpc/events';

/**
 * The events of batches of recorded bot requests, in their order,
 * serialised and framed for the file event log, per partition of their
 * website's key, numbered from each partition's `nextOffsets[p]` (see
 * `FileEventLog.appendFramed`): all of a flush's per-request work, done off
 * the thread that serves bots. Each partition's events are written into one
 * buffer of its own with a frame header's room before each, and framed
 * where they lie: no copy, no scratch memory. Parts come in the order their
 * partitions first appear; their memory may be transferred.
 */
export function frameRecordedBotRequests(batches: readonly RecordedBotRequestColumns[], nextOffsets: readonly number[]): FramedPartition[] {
  // Every request of every batch, numbered in order: its batch, and its index there.
  const count = batches.reduce((sum, columns) => sum + requestCount(columns), 0);
  const batchOf = new Uint32Array(count);
  const indexOf = new Uint32Array(count);
  for (let b = 0, r = 0; b < batches.length; b++) {
    for (let i = 0; i < requestCount(batches[b]); i++, r++) {
      batchOf[r] = b;
      indexOf[r] = i;
    }
  }
  const ids = batches.map((columns) => new BotRequestEventIds(columns.idPrefix));
  const groups = groupByPartition(count, (r) => websiteIdAt(batches[batchOf[r]], indexOf[r]), (r) => r, nextOffsets.length);
  return [...groups].map(([partition, requests]) => {
    const events = new BotRequestJsonBatch(requests.length, undefined, ids[batchOf[requests[0]]], FRAME_HEADER_BYTES);
    for (const r of requests) addRecordedBotRequest(events, batches[batchOf[r]], indexOf[r], ids[batchOf[r]]);
    const { bytes, ends } = events.withRoom();
    return { partition, records: sealFramesInPlace(bytes, ends, nextOffsets[partition]) };
  });
}
