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
  // Copied into a buffer of its own so it can be transferred (the writer's is larger than what it wrote).
  const bytes = new Uint8Array(encoded.bytes);
  return { answer: { bytes, ends: encoded.ends }, transfer: [bytes.buffer, encoded.ends.buffer as ArrayBuffer] };
});
