import { open, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { type LogSink, retryUntilStopped } from '@bpc/support';
import { fsyncDir, mkdirDurably, readAt, writeFully } from '@bpc/durable-fs';
import { CursorBytes, covers, PartitionCursor } from './partition-cursor';
import { recoverTail, removeProbe, writeProbe } from './partition-recovery';
import { decodeFrameSpans, FramedRecords, frameRecordsInSlices, FrameSpans, frameSize, StoredPayloads } from './record-framing';
import { addIndexEntry, createSegment, indexFrames, listSegments, nearestEntry, Segment, segmentOf, splitAtSegmentLimit } from './segments';

interface PendingAppend {
  readonly payloads: readonly Buffer[];
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

const NO_RECORDS: StoredPayloads = { buffer: Buffer.alloc(0), firstOffset: 0, count: 0, starts: new Uint32Array(0), ends: new Uint32Array(0) };

/** Bytes read at a time; the last write is kept in memory up to this size. */
const READ_CHUNK = 1024 * 1024;
/** A round larger than this is split, so one huge burst does not hold every caller's buffers at once. */
const MAX_ROUND_BYTES = 16 * 1024 * 1024;
/** Frames copied and checksummed between two turns of the event loop (about a millisecond's work; see `frameRecordsInSlices`). */
const FRAME_SLICE = 1024;
/** A repair that keeps failing is logged on its first attempt and then once every this many (at the 5 s backoff cap: every 100 s). */
const REPAIR_LOG_EVERY = 20;

export interface PartitionLogOptions {
  readonly segmentBytes: number;
  readonly log: LogSink;
  /** Told after a segment is closed, so retention can run. */
  readonly onRoll?: () => void;
}

/**
 * One partition of a topic: a directory of segment files.
 *
 * Appends are group-committed: callers queue their frames; one round at a
 * time takes everything queued, writes it with one positional write per
 * segment touched and one fdatasync, then resolves every caller of the round.
 * Callers that arrive while a round is on disk form the next round, so the
 * number of fsyncs adapts to the load instead of one per call. Offsets are
 * assigned in queue order, which is call order.
 *
 * Readers only ever see acknowledged (fsync'd) bytes. After a failed write or
 * fsync (a full disk: ENOSPC; EIO) the partition refuses appends and repairs
 * itself in the background, retried with backoff (100 ms doubling up to 5 s):
 * it cuts the active segment back to its last acknowledged frame (what the
 * failed round left past it was never acknowledged and never read, whatever
 * the kernel did with those pages), syncs that, and writes a probe file
 * beside the segments; once the probe is on disk the partition takes appends
 * again. Acknowledged records are never touched.
 *
 * The bytes of the last write (up to 1 MB) stay in memory once acknowledged:
 * a reader keeping up (a projector following the edge's bot requests, in the
 * process that serves the bots) decodes them from there, without their CRCs,
 * instead of reading back from the file what was just written.
 */
export class PartitionLog {
  private readonly segments: Segment[];
  private readonly listeners = new Set<() => void>();
  private pending: PendingAppend[] = [];
  private round?: Promise<void>;
  private failure?: Error;
  /** The background repair after a failed round (see the class comment). */
  private repairing?: Promise<void>;
  /** Aborted by `close`: ends a repair's backoff. */
  private readonly closing = new AbortController();
  private closed = false;
  /** The last acknowledged write: its segment, where it starts in it, and its bytes (framed here, so their CRCs need no check). */
  private lastWrite?: { readonly segment: Segment } & CursorBytes;

  private constructor(
    private readonly dir: string,
    readonly topic: string,
    readonly partition: number,
    segments: Segment[],
    private activeHandle: FileHandle,
    private readonly options: PartitionLogOptions,
  ) {
    this.segments = segments;
  }

  /** Opens (or creates) the partition in `dir`, cutting a torn tail off its last segment. */
  static async open(dir: string, topic: string, partition: number, options: PartitionLogOptions): Promise<PartitionLog> {
    await mkdirDurably(dir);
    const segments = await listSegments(dir);
    if (segments.length === 0) segments.push(await createSegment(dir, 0));
    const active = segments[segments.length - 1];
    await recoverTail(active, { topic, partition }, options.log);
    await removeProbe(dir);
    const handle = await open(active.file, 'r+');
    return new PartitionLog(dir, topic, partition, segments, handle, options);
  }

  /** Oldest offset still stored (retention moves it forward). */
  get earliestOffset(): number {
    return this.segments[0].base;
  }

  /** Offset the next record will get; every offset below it is durable. */
  get endOffset(): number {
    return this.active.end;
  }

  /** Why the partition refuses appends, while it does (from a failed write until its repair succeeded). */
  get failed(): Error | undefined {
    return this.failure;
  }

  private get active(): Segment {
    return this.segments[this.segments.length - 1];
  }

  /** Queues frames; resolves once they are fsync'd (see the class comment). */
  append(payloads: readonly Buffer[]): Promise<void> {
    if (this.failure) return Promise.reject(new Error(`partition ${this.topic}/${this.partition} takes no appends until a failed write is repaired (retrying): ${this.failure.message}`));
    if (this.closed) return Promise.reject(new Error(`partition ${this.topic}/${this.partition} is closed`));
    if (payloads.length === 0) return Promise.resolve();
    const bytes = payloads.reduce((sum, p) => sum + frameSize(p), 0);
    return new Promise((resolve, reject) => {
      this.pending.push({ payloads, bytes, resolve, reject });
      this.round ??= this.runRounds();
    });
  }

  /** Resolves once everything queued so far is on disk (or failed). */
  async flush(): Promise<void> {
    while (this.round) await this.round;
  }

  /** Registers a callback run after each durable write; returns its removal. */
  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  openCursor(nextOffset: number): PartitionCursor {
    return new PartitionCursor(nextOffset);
  }

  /**
   * Reads up to `maxRecords` consecutive acknowledged records at the cursor
   * and advances it; returns none (`count` 0) when the cursor is at the end.
   * A cursor below the earliest retained offset jumps to the earliest (the
   * skip is logged). Corruption inside acknowledged data throws: it is never
   * skipped (records of the last write, decoded from memory, are not read
   * from the file, so damage to them on disk is found by a later reader of
   * the file). The payloads' buffer is shared with other readers: read it,
   * never change it.
   */
  async read(cursor: PartitionCursor, maxRecords: number): Promise<StoredPayloads> {
    for (;;) {
      if (cursor.nextOffset >= this.endOffset) return NO_RECORDS;
      if (!cursor.segment) await this.position(cursor);
      const segment = cursor.segment!;
      if (cursor.position >= segment.size) {
        if (!segment.closed) return NO_RECORDS;
        await cursor.detach();
        continue;
      }
      return this.readFrames(cursor, segment, maxRecords);
    }
  }

  /** Deletes closed segments whose last write is older than `cutoffMs` (oldest first, never the active one). */
  async deleteSegmentsOlderThan(cutoffMs: number): Promise<number> {
    let deleted = 0;
    while (this.segments.length > 1 && this.segments[0].closed && this.segments[0].lastWriteMs < cutoffMs) {
      const [segment] = this.segments.splice(0, 1);
      // Cursors still reading it keep their open handle; the inode lives until they close it.
      await unlink(segment.file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      deleted += 1;
      this.options.log.info({ topic: this.topic, partition: this.partition, base: segment.base, end: segment.end }, 'event log: retention deleted a segment');
    }
    if (deleted > 0) await fsyncDir(this.dir);
    return deleted;
  }

  /** Waits for queued appends (and stops a repair), then closes the active segment file. */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    await this.flush();
    await this.repairing;
    await this.activeHandle.close();
  }

  private async runRounds(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const round = this.takeRound();
        try {
          await this.writeRound(round);
          for (const append of round) append.resolve();
        } catch (error) {
          this.failure ??= error as Error;
          this.options.log.error({ topic: this.topic, partition: this.partition, err: error }, 'event log: append failed; the partition takes no appends until it is repaired (retried with backoff)');
          for (const append of [...round, ...this.pending.splice(0)]) append.reject(error as Error);
          this.repairing ??= this.repairInBackground();
        }
      }
    } finally {
      this.round = undefined;
    }
  }

  /** Repairs until it succeeds or the partition closes; then appends are taken again. */
  private async repairInBackground(): Promise<void> {
    const where = { topic: this.topic, partition: this.partition };
    let attempts = 0;
    const repaired = await retryUntilStopped(() => this.repair().then(() => true), this.closing.signal, {
      failed: (error, attempt) => {
        attempts = attempt;
        if (attempt % REPAIR_LOG_EVERY === 1) this.options.log.warn({ ...where, err: error, attempt }, 'event log: partition not repaired yet (is the disk still full?); retrying');
      },
    });
    this.repairing = undefined;
    if (!repaired) return;
    this.options.log.info({ ...where, failedAttempts: attempts, after: this.failure?.message }, 'event log: partition repaired, taking appends again');
    this.failure = undefined;
  }

  /**
   * Cuts the active segment back to its acknowledged bytes (the torn tail a
   * failed round may have left), makes that durable, then checks with a
   * probe file that the disk takes a write and its fdatasync again.
   */
  private async repair(): Promise<void> {
    await this.activeHandle.truncate(this.active.size);
    await this.activeHandle.datasync();
    await writeProbe(this.dir);
  }

  private takeRound(): PendingAppend[] {
    let bytes = 0;
    let count = 0;
    while (count < this.pending.length && (count === 0 || bytes + this.pending[count].bytes <= MAX_ROUND_BYTES)) {
      bytes += this.pending[count].bytes;
      count += 1;
    }
    return this.pending.splice(0, count);
  }

  /** Writes one round: its writes + one fdatasync per segment it spans (usually one). */
  private async writeRound(round: readonly PendingAppend[]): Promise<void> {
    const payloads = round.flatMap((append) => append.payloads);
    for (const chunk of splitAtSegmentLimit(payloads, this.active.size, this.options.segmentBytes)) {
      if (chunk.rollFirst) await this.roll();
      await this.writeChunk(chunk.payloads);
    }
  }

  /** Frames the chunk's payloads into one buffer, writes it, fsyncs. */
  private async writeChunk(payloads: readonly Buffer[]): Promise<void> {
    const segment = this.active;
    // In slices: only this round writes to the segment, so nothing moves under it between two.
    const framed: FramedRecords = await frameRecordsInSlices(payloads, segment.end, FRAME_SLICE);
    await writeFully(this.activeHandle, framed.bytes, segment.size);
    await this.activeHandle.datasync();
    for (let i = 0, start = 0; i < framed.ends.length; start = framed.ends[i], i++) addIndexEntry(segment, framed.firstOffset + i, segment.size + start);
    // Kept up to one read's worth: a bigger write (an import) is read back like older data, so memory stays bounded per partition.
    this.lastWrite = framed.bytes.length <= READ_CHUNK ? { segment, start: segment.size, buffer: framed.bytes, inMemoryOnly: true } : undefined;
    segment.size += framed.bytes.length;
    segment.end += framed.ends.length;
    segment.lastWriteMs = Date.now();
    for (const listener of this.listeners) listener();
  }

  /**
   * Closes the active segment and starts a new one named by the next offset.
   * Nothing changes unless the new segment is created and opened, so a roll
   * that failed (a full disk) leaves the active segment as it was.
   */
  private async roll(): Promise<void> {
    const previous = this.active;
    const next = await createSegment(this.dir, previous.end);
    const handle = await open(next.file, 'r+').catch(async (error: unknown) => {
      await unlink(next.file).catch(() => undefined);
      throw error;
    });
    const old = this.activeHandle;
    previous.closed = true;
    this.activeHandle = handle;
    this.segments.push(next);
    this.options.onRoll?.();
    // Its frames are fsync'd already: a failed close loses nothing.
    await old.close().catch((error: unknown) => this.options.log.warn({ topic: this.topic, partition: this.partition, err: error }, 'event log: closing a full segment failed'));
  }

  /** Points a detached cursor at the segment and byte position of its next offset. */
  private async position(cursor: PartitionCursor): Promise<void> {
    if (cursor.nextOffset < this.earliestOffset) {
      this.options.log.warn(
        { topic: this.topic, partition: this.partition, wanted: cursor.nextOffset, earliest: this.earliestOffset },
        'event log: records below the earliest retained offset are gone; starting at the earliest',
      );
      cursor.nextOffset = this.earliestOffset;
    }
    const segment = segmentOf(this.segments, cursor.nextOffset);
    const handle = await open(segment.file, 'r').catch((error: NodeJS.ErrnoException) => {
      // Retention removed it between lookup and open: look again.
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!handle) return this.position(cursor);
    const position = await this.scanTo(segment, handle, cursor.nextOffset);
    cursor.attach(segment, handle, position);
  }

  /** Byte position of `offset` in `segment`: nearest index entry, then a forward scan (which extends the index). */
  private async scanTo(segment: Segment, handle: FileHandle, offset: number): Promise<number> {
    let { offset: at, position } = nearestEntry(segment.index, offset);
    while (at < offset) {
      const result = await this.decodeAt(handle, segment, position, at, offset - at);
      indexFrames(segment, result, position);
      position += result.nextPosition;
      at = result.nextOffset;
    }
    return position;
  }

  private async readFrames(cursor: PartitionCursor, segment: Segment, maxRecords: number): Promise<StoredPayloads> {
    const limit = Math.min(maxRecords, this.endOffset - cursor.nextOffset);
    let result = cursor.decodeCached(limit, segment.size);
    const lastWrite = this.lastWrite;
    if (!result && lastWrite?.segment === segment && covers(lastWrite, cursor.position)) {
      cursor.remember(lastWrite);
      result = cursor.decodeCached(limit, segment.size);
    }
    if (!result) {
      result = await this.decodeAt(cursor.file, segment, cursor.position, cursor.nextOffset, limit, (bytes) => cursor.remember(bytes));
    }
    cursor.advance(result.nextPosition, result.nextOffset);
    return result;
  }

  /**
   * Decodes at least one frame at `position` (reading more than one chunk
   * for a frame larger than a chunk); anything else is corruption, because
   * only acknowledged bytes are read.
   */
  private async decodeAt(handle: FileHandle, segment: Segment, position: number, offset: number, max: number, keep?: (bytes: CursorBytes) => void): Promise<FrameSpans> {
    let length = Math.min(READ_CHUNK, segment.size - position);
    for (;;) {
      const buffer = await readAt(handle, position, length);
      keep?.({ start: position, buffer });
      const result = decodeFrameSpans(buffer, 0, offset, max);
      if (result.count > 0) return result;
      const stop = result.stop;
      if (stop.kind === 'incomplete' && stop.needBytes > length && position + stop.needBytes <= segment.size) {
        length = stop.needBytes;
        continue;
      }
      throw this.corruption(segment, position, stop);
    }
  }

  private corruption(segment: Segment, position: number, stop: { kind: string; reason?: string }): Error {
    const reason = 'reason' in stop ? stop.reason : stop.kind;
    return new Error(`event log corruption in ${segment.file} at byte ${position}: ${reason}`);
  }
}
