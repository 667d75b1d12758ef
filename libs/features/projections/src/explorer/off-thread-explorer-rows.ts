import path from 'node:path';
import { type LogSink, WorkerCalls } from '@bpc/support';
import { jsonLines, type EncodedBatch } from './explorer-rows';

/** A batch of stored events, one per line (`jsonLines`). */
export interface RowsRequest {
  readonly lines: Uint8Array;
}

/** `EncodedBatch` as it crosses back (the serialised rows are transferred, not copied). */
export interface RowsAnswer {
  readonly tables: readonly { readonly table: string; readonly jsonEachRow: Uint8Array; readonly count: number }[];
  readonly skipped: EncodedBatch['skipped'];
}

/**
 * `encodeExplorerRows` in a worker thread, fed the events' stored bytes:
 * parsing the events and serialising their rows is most of the explorer
 * projection's work, and in standalone mode it would otherwise run on the
 * thread that serves bot requests. This thread only copies the records'
 * bytes into one transferred buffer, a line each, and gets the rows back as bytes (which
 * also keeps the rows waiting for the next insert off its heap).
 */
export class OffThreadExplorerRows {
  private readonly worker: WorkerCalls<RowsRequest, RowsAnswer>;

  constructor(log: LogSink) {
    this.worker = new WorkerCalls({ script: path.join(__dirname, 'explorer-rows-worker'), label: 'explorer rows worker', log });
  }

  async encode(payloads: readonly Buffer[]): Promise<EncodedBatch> {
    const lines = jsonLines(payloads).jsonEachRow;
    const answer = await this.worker.call({ lines }, [lines.buffer as ArrayBuffer]);
    const tables = answer.tables.map(({ table, jsonEachRow, count }) => [table, { jsonEachRow: Buffer.from(jsonEachRow.buffer, jsonEachRow.byteOffset, jsonEachRow.byteLength), count }] as const);
    return { tables: new Map(tables), skipped: answer.skipped };
  }

  /** Waits for batches in flight, then ends the thread. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
