import type { FileHandle } from 'node:fs/promises';
import { decodeFrameSpans, FrameSpans } from './record-framing';
import type { Segment } from './segments';

/** Bytes of a segment from `start` on; `inMemoryOnly` when they were framed in this process and never read from the file. */
export interface CursorBytes {
  readonly start: number;
  readonly buffer: Buffer;
  readonly inMemoryOnly?: boolean;
}

/** Whether `position` in the segment lies within `bytes`. */
export function covers(bytes: CursorBytes, position: number): boolean {
  return position >= bytes.start && position < bytes.start + bytes.buffer.length;
}

/**
 * A consumer's position in one partition. It keeps the segment file it reads
 * open, which also lets it finish a segment that retention deletes meanwhile.
 */
export class PartitionCursor {
  segment?: Segment;
  position = 0;
  private handle?: FileHandle;
  /** The last bytes read (or written), so a batch smaller than a chunk does not re-read the rest of the chunk. */
  private cache?: CursorBytes;

  constructor(public nextOffset: number) {}

  get file(): FileHandle {
    if (!this.handle) throw new Error('cursor is not attached to a segment');
    return this.handle;
  }

  attach(segment: Segment, handle: FileHandle, position: number): void {
    this.segment = segment;
    this.handle = handle;
    this.position = position;
    this.cache = undefined;
  }

  advance(bytes: number, nextOffset: number): void {
    this.position += bytes;
    this.nextOffset = nextOffset;
  }

  remember(bytes: CursorBytes): void {
    this.cache = bytes;
  }

  /**
   * Decodes from the cached bytes when they hold a full batch, or everything
   * acknowledged so far; undefined means "read the file".
   */
  decodeCached(limit: number, segmentSize: number): FrameSpans | undefined {
    const cache = this.cache;
    if (!cache || !covers(cache, this.position)) return undefined;
    const result = decodeFrameSpans(cache.buffer, this.position - cache.start, this.nextOffset, limit, !cache.inMemoryOnly);
    const cacheEnd = cache.start + cache.buffer.length;
    // Bytes read from the file may end inside a frame: read the file for a full batch. A write kept in memory ends on a frame; the next one follows it.
    if (result.count === 0 || (result.stop.kind !== 'limit' && cacheEnd < segmentSize && !cache.inMemoryOnly)) return undefined;
    return { ...result, nextPosition: result.nextPosition - (this.position - cache.start) };
  }

  /** Moves to `offset`; the next read locates it. */
  async seek(offset: number): Promise<void> {
    await this.detach();
    this.nextOffset = offset;
  }

  async detach(): Promise<void> {
    const handle = this.handle;
    this.segment = undefined;
    this.handle = undefined;
    this.cache = undefined;
    this.position = 0;
    // A read-only handle failing to close loses nothing; the cursor must still move.
    await handle?.close().catch(() => undefined);
  }
}
