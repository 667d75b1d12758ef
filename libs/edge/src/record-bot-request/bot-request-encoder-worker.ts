import { answerCalls } from '@bpc/event-log';
import { encodeBotRequestBatch } from '@bpc/events';
import type { EncodeAnswer, EncodeRequest } from './off-thread-bot-request-encoder';

/** Worker thread of `OffThreadBotRequestEncoder`. A batch that cannot be encoded is an answer, not a failure of the worker. */
answerCalls<EncodeRequest, EncodeAnswer>(({ tuples }) => {
  let encoded: ReturnType<typeof encodeBotRequestBatch>;
  try {
    encoded = encodeBotRequestBatch(tuples);
  } catch (error) {
    return { answer: { refused: error instanceof Error ? error.message : String(error) } };
  }
  // The writer's buffer is its own (never pooled): transferred as it is, not copied.
  return { answer: { bytes: encoded.bytes, ends: encoded.ends }, transfer: [encoded.bytes.buffer as ArrayBuffer, encoded.ends.buffer as ArrayBuffer] };
});
