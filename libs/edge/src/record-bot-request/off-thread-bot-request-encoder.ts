import path from 'node:path';
import type { LogSink } from '@bpc/domain';
import { WorkerCalls } from '@bpc/event-log';
import { botRequestEvents, BotRequestTuple, EncodedEvent, encodeBotRequests } from '@bpc/events';

/** A batch to encode. */
export interface EncodeRequest {
  readonly tuples: readonly BotRequestTuple[];
}

/** Its JSON, transferred (see `encodeBotRequestBatch`). */
export interface EncodeAnswer {
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

/**
 * `encodeBotRequests` in a worker thread. On the file log (standalone mode)
 * the recorder appends from the thread that serves the bots, and encoding a
 * batch there held that thread for milliseconds (a 2,000-request batch is
 * about 1.2 MB of JSON): now it only clones the tuples across and gets the
 * bytes back. If the worker fails (it could not start, or died), the batch
 * is encoded here instead; a batch that cannot be encoded rejects either way.
 */
export class OffThreadBotRequestEncoder {
  private readonly worker: WorkerCalls<EncodeRequest, EncodeAnswer>;
  /** Batches encoded in this thread because the worker did not answer with their bytes. */
  encodedHere = 0;

  constructor(log: LogSink) {
    this.worker = new WorkerCalls({ script: path.join(__dirname, 'bot-request-encoder-worker'), label: 'bot request encoder', log });
  }

  async encode(tuples: readonly BotRequestTuple[]): Promise<EncodedEvent[]> {
    if (tuples.length === 0) return [];
    let answer: EncodeAnswer;
    try {
      answer = await this.worker.call({ tuples });
    } catch {
      // The worker's own encoding errors come back here too: encoding again here rejects with the same error.
      this.encodedHere += 1;
      return encodeBotRequests(tuples);
    }
    return botRequestEvents(tuples, Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength), answer.ends);
  }

  /** Waits for batches in flight, then ends the thread. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
