import { answerCalls } from '@bpc/event-log';
import { encodeBotRequestBatch } from '@bpc/events';
import type { EncodeAnswer, EncodeRequest } from './off-thread-bot-request-encoder';

/** Worker thread of `OffThreadBotRequestEncoder`. */
answerCalls<EncodeRequest, EncodeAnswer>(({ tuples }) => {
  const { bytes, ends } = encodeBotRequestBatch(tuples);
  // Copied into a buffer of its own so it can be transferred (the writer's is larger than what it wrote).
  const own = new Uint8Array(bytes);
  return { answer: { bytes: own, ends }, transfer: [own.buffer, ends.buffer as ArrayBuffer] };
});
