import { answerCalls } from '@bpc/event-log';
import { BATCH_JSON_SCRATCH_BYTES } from '@bpc/events';
import { frameRecordedBotRequests } from './framed-bot-requests';
import type { FramesAnswer, FramesRequest } from './bot-request-appender';

/**
 * Memory for the JSON of a call's batches, reused call after call (calls
 * come one at a time): a fresh buffer per batch cost a page fault per 4 KB.
 */
const jsonScratch: Buffer[] = [];

/** Worker thread of the file log's bot request appender: serialises and frames a flush's requests (see `frameRecordedBotRequests`). */
answerCalls<FramesRequest, FramesAnswer>(({ batches, nextOffsets }) => {
  const parts = frameRecordedBotRequests(batches, nextOffsets, (i) => (jsonScratch[i] ??= Buffer.allocUnsafeSlow(BATCH_JSON_SCRATCH_BYTES)));
  // Each part's memory is its own (frameRecords never uses the shared pool): transferred, not copied.
  return { answer: { parts }, transfer: parts.flatMap(({ records }) => [records.bytes.buffer as ArrayBuffer, records.ends.buffer as ArrayBuffer]) };
});
