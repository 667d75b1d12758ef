import { FramedPartition, frameEncodedBatches } from '@bpc/event-log';
import { encodeRecordedBotRequests, RecordedBotRequestColumns } from '@bpc/events';

/**
 * The events of batches of recorded bot requests, in their order,
 * serialised and framed for the file event log, per partition of their
 * website's key, numbered from each partition's `nextOffsets[p]` (see
 * `FileEventLog.appendFramed`): all of a flush's per-request work, done off
 * the thread that serves bots. Batch `i`'s JSON is written into
 * `jsonScratch(i)` when given (memory reused call after call: the frames
 * are copies, so it is free again once this returns).
 */
export function frameRecordedBotRequests(batches: readonly RecordedBotRequestColumns[], nextOffsets: readonly number[], jsonScratch?: (batch: number) => Buffer): FramedPartition[] {
  return frameEncodedBatches(
    batches.map((requests, i) => encodeRecordedBotRequests(requests, jsonScratch?.(i))),
    nextOffsets,
  );
}
