import { answerCalls } from '@bpc/event-log';
import { frameRecordedBotRequests } from './framed-bot-requests';
import type { FramesAnswer, FramesRequest } from './bot-request-appender';

/** Worker thread of the file log's bot request appender: serialises and frames a flush's requests (see `frameRecordedBotRequests`). */
answerCalls<FramesRequest, FramesAnswer>(({ batches, nextOffsets }) => {
  const parts = frameRecordedBotRequests(batches, nextOffsets);
  // Each part's memory is its own (never Node's shared pool): transferred, not copied.
  return { answer: { parts }, transfer: parts.flatMap(({ records }) => [records.bytes.buffer as ArrayBuffer, records.ends.buffer as ArrayBuffer]) };
});
