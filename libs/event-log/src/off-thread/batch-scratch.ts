import { BATCH_JSON_SCRATCH_BYTES } from '@bpc/events';

/** The memory one append of a batch writes into: its events' JSON, and the log's encoding of them. */
export interface Scratch {
  readonly json: Buffer;
  readonly records: Buffer;
}

/**
 * Memory reused append after append: a batch's JSON and its Kafka records
 * are written into the same two buffers every time. Fresh buffers per batch
 * cost about 80 page faults per 1,000 events, and their external memory
 * drove the worker's garbage collections.
 *
 * `use` lends the memory for one append and takes it back only when the
 * append succeeded: after a failure a write of the refused request may
 * still be queued on the socket, so the next append gets new memory.
 * Appends running at once get memory of their own.
 */
export class BatchScratch {
  private idle?: Scratch;

  /** `bytes` each: a full batch's JSON, and as much for its Kafka record batch. */
  constructor(private readonly bytes = BATCH_JSON_SCRATCH_BYTES) {}

  async use<T>(append: (scratch: Scratch) => Promise<T>): Promise<T> {
    const scratch = this.idle ?? { json: Buffer.allocUnsafeSlow(this.bytes), records: Buffer.allocUnsafeSlow(this.bytes) };
    this.idle = undefined;
    const result = await append(scratch);
    this.idle = scratch;
    return result;
  }
}
