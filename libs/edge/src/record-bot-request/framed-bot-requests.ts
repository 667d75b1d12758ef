import { FRAME_HEADER_BYTES, FramedPartition, partitionForKey, sealFramesInPlace } from '@bpc/event-log';
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
  const partitionsOf = batches.map((columns) => requestPartitions(columns, nextOffsets.length));
  const counts = new Map<number, number>();
  for (const partitions of partitionsOf) for (const partition of partitions) counts.set(partition, (counts.get(partition) ?? 0) + 1);
  const events = new Map<number, BotRequestJsonBatch>();
  for (let b = 0; b < batches.length; b++) {
    const columns = batches[b];
    const partitions = partitionsOf[b];
    const ids = new BotRequestEventIds(columns.idPrefix);
    let partition = -1;
    let batch: BotRequestJsonBatch | undefined;
    for (let i = 0; i < partitions.length; i++) {
      // Consecutive requests mostly go to the same partition: no lookup then.
      if (partitions[i] !== partition) {
        partition = partitions[i];
        batch = events.get(partition);
        if (batch === undefined) events.set(partition, (batch = new BotRequestJsonBatch(counts.get(partition)!, undefined, ids, FRAME_HEADER_BYTES)));
      }
      addRecordedBotRequest(batch!, columns, i, ids);
    }
  }
  return [...events].map(([partition, batch]) => {
    const { bytes, ends } = batch.withRoom();
    return { partition, records: sealFramesInPlace(bytes, ends, nextOffsets[partition]) };
  });
}

/** The partition of each request of the columns, by its website's key (each website hashed once). */
function requestPartitions(columns: RecordedBotRequestColumns, partitionCount: number): Uint32Array {
  const partitions = new Uint32Array(requestCount(columns));
  const partitionOf = new Map<string, number>();
  for (let i = 0; i < partitions.length; i++) {
    const key = websiteIdAt(columns, i);
    let partition = partitionOf.get(key);
    if (partition === undefined) partitionOf.set(key, (partition = partitionForKey(key, partitionCount)));
    partitions[i] = partition;
  }
  return partitions;
}
