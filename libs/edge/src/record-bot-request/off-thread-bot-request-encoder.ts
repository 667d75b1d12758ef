import path from 'node:path';
import type { LogSink } from '@bpc/domain';
import { WorkerCalls } from '@bpc/event-log';
import { botRequestEvents, BotRequestTuple, EncodedEvent, encodeBotRequests } from '@bpc/events';

/** A batch to encode. */
export interface EncodeRequest {
  readonly tuples: readonly BotRequestTuple[];
}

/** Its JSON, transferred (see `encodeBotRequestBatch`), or why it cannot be encoded. */
export type EncodeAnswer = { readonly bytes: Uint8Array; readonly ends: Uint32Array } | { readonly refused: string };

/** Worker failures in a row after which batches are encoded in this thread for good. */
const GIVE_UP_AFTER_FAILURES = 3;

/**
 * `encodeBotRequests` in a worker thread. On the file log (standalone mode)
 * the recorder appends from the thread that serves the bots, and encoding a
 * batch there held that thread for milliseconds (a 1,000-request batch is
 * about 600 KB of JSON): now it only clones the tuples across and gets the
 * bytes back. A batch that cannot be encoded rejects with the encoder's
 * error. If the worker itself fails (it could not start, or died), the batch
 * is encoded here; after three failures in a row, every batch is (logged once).
 */
export class OffThreadBotRequestEncoder {
  private readonly worker: WorkerCalls<EncodeRequest, EncodeAnswer>;
  private failures = 0;
  /** Batches encoded in this thread because the worker failed. */
  encodedHere = 0;

  constructor(private readonly log: LogSink) {
    this.worker = new WorkerCalls({ script: path.join(__dirname, 'bot-request-encoder-worker'), label: 'bot request encoder', log });
  }

  async encode(tuples: readonly BotRequestTuple[]): Promise<EncodedEvent[]> {
    if (tuples.length === 0) return [];
    if (this.failures >= GIVE_UP_AFTER_FAILURES) return this.encodeHere(tuples);
    let answer: EncodeAnswer;
    try {
      answer = await this.worker.call({ tuples });
    } catch (error) {
      if (++this.failures === GIVE_UP_AFTER_FAILURES) this.log.error({ err: error }, 'bot request encoder: worker failed repeatedly; encoding on the serving thread from now on');
      return this.encodeHere(tuples);
    }
    this.failures = 0;
    if ('refused' in answer) throw new Error(answer.refused);
    return botRequestEvents(tuples, Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength), answer.ends);
  }

  /** Waits for batches in flight, then ends the thread. */
  close(): Promise<void> {
    return this.worker.close();
  }

  private encodeHere(tuples: readonly BotRequestTuple[]): EncodedEvent[] {
    this.encodedHere += 1;
    return encodeBotRequests(tuples);
  }
}
