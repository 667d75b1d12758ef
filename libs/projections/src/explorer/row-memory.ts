/** Size of the chunks rows are taken from: a second of recorded bot requests at full speed takes a few. */
export const ROW_CHUNK_BYTES = 4 * 1024 * 1024;
/** Released chunks kept for reuse (the rest is left to the garbage collector). */
const MAX_FREE_CHUNKS = 8;

/**
 * Memory for serialised rows that wait for their insert, taken from large
 * chunks that are reused once the insert holding them is done.
 *
 * Why: rows wait up to a second for their insert. A buffer that lives that
 * long outlives two young-generation collections, and V8 then counts its
 * bytes as old memory: a fresh buffer per batch of recorded bot requests
 * made it mark the whole heap about once a second at full load (in
 * standalone mode on the thread that serves bots, and on the cores beside
 * it). Reused chunks keep the old generation still.
 *
 * `take` hands out the next bytes of the current chunk; `seal` closes the
 * chunks handed out so far (one insert's rows) and `release` takes them back
 * once that insert is done, failed for good or not.
 */
export class RowMemory {
  private readonly free: Buffer[] = [];
  private readonly handedOut: Buffer[] = [];
  private current?: Buffer;
  private used = 0;

  /** `size` bytes of memory of their own until released (contents undefined). */
  take(size: number): Buffer {
    if (size > ROW_CHUNK_BYTES) {
      // Larger than a chunk (a burst of big events): its own buffer, not reused.
      return Buffer.allocUnsafeSlow(size);
    }
    if (!this.current || this.used + size > this.current.length) {
      this.current = this.free.pop() ?? Buffer.allocUnsafeSlow(ROW_CHUNK_BYTES);
      this.handedOut.push(this.current);
      this.used = 0;
    }
    const bytes = this.current.subarray(this.used, this.used + size);
    this.used += size;
    return bytes;
  }

  /** The chunks handed out since the last seal; what is taken next comes from other chunks. */
  seal(): Buffer[] {
    this.current = undefined;
    return this.handedOut.splice(0);
  }

  /** Chunks `seal` returned, whose rows are no longer needed. */
  release(chunks: readonly Buffer[]): void {
    for (const chunk of chunks) if (this.free.length < MAX_FREE_CHUNKS) this.free.push(chunk);
  }
}
