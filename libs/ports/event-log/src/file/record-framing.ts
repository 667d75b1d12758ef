import { crc32 } from 'node:zlib';
import { grownArray } from '@bpc/support';
import { EventTooLargeError } from '../event-too-large';

/**
 * On-disk frame of one record in a segment file:
 *
 * ```
 * u32 BE  payload length (bytes)
 * u32 BE  CRC32 of the 8 offset bytes followed by the payload
 * u64 BE  offset of the record in its partition
 * ...     payload: the event envelope as UTF-8 JSON
 * ```
 *
 * The CRC covers the offset so a frame copied to the wrong place is caught,
 * and the length comes first so a reader can skip without parsing JSON. A
 * torn write (crash mid-append) shows up as a frame that is incomplete or
 * fails its CRC; it can only be at the tail, because a round is acknowledged
 * only after its fdatasync.
 */
export const FRAME_HEADER_BYTES = 16;

/** Larger payloads are refused at append time; a larger length on disk is corruption. */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

const TWO_POW_32 = 0x1_0000_0000;

/** `payload`, when a frame can hold it; an `EventTooLargeError` otherwise. */
export function framablePayload(payload: Buffer): Buffer {
  if (payload.length > MAX_PAYLOAD_BYTES) throw new EventTooLargeError(payload.length, MAX_PAYLOAD_BYTES);
  return payload;
}

/** Bytes one payload takes on disk, header included. */
export function frameSize(payload: Uint8Array): number {
  return FRAME_HEADER_BYTES + payload.length;
}

/** Writes the frame of `payload` at `offset` into `target` at `at`; returns the position after it. */
export function writeFrame(target: Buffer, at: number, offset: number, payload: Uint8Array): number {
  target.set(payload, at + FRAME_HEADER_BYTES);
  return sealFrame(target, at, offset, payload.length);
}

/**
 * Writes the header of the frame at `at` in `target` whose payload
 * (`length` bytes) is already in place after it: its length, `offset`, and
 * the CRC of both; returns the position after the frame.
 */
export function sealFrame(target: Buffer, at: number, offset: number, length: number): number {
  target.writeUInt32BE(length, at);
  target.writeUInt32BE(Math.floor(offset / TWO_POW_32), at + 8);
  target.writeUInt32BE(offset % TWO_POW_32, at + 12);
  const end = at + FRAME_HEADER_BYTES + length;
  // The offset and the payload lie side by side: one CRC call covers both.
  target.writeUInt32BE(crc32(target.subarray(at + 8, end)), at + 4);
  return end;
}

/** Records framed one after the other in one buffer: frame `i` ends at `ends[i]`; the first carries `firstOffset`, each next one the following offset. */
export interface FramedRecords {
  readonly firstOffset: number;
  readonly bytes: Buffer;
  readonly ends: Uint32Array;
}

/** Frames `payloads` one after the other into a buffer of their own, the first at `firstOffset`. */
export function frameRecords(payloads: readonly Uint8Array[], firstOffset: number): FramedRecords {
  const framing = startFraming(payloads, firstOffset);
  framing.frame(payloads.length);
  return framing.framed;
}

/**
 * `frameRecords` in slices of `slice` frames, yielding to the event loop
 * (`setImmediate`) between two: a write round of thousands of records (a
 * flush of bot requests) would otherwise hold the serving thread while it
 * copies and checksums them all.
 */
export async function frameRecordsInSlices(payloads: readonly Uint8Array[], firstOffset: number, slice: number): Promise<FramedRecords> {
  const framing = startFraming(payloads, firstOffset);
  for (let start = 0; start < payloads.length; start += slice) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    framing.frame(Math.min(payloads.length, start + slice));
  }
  return framing.framed;
}

/** The buffer of `payloads`' frames, filled by `frame(upTo)` from where the last call stopped. */
function startFraming(payloads: readonly Uint8Array[], firstOffset: number): { readonly framed: FramedRecords; frame(upTo: number): void } {
  let size = 0;
  for (const payload of payloads) size += FRAME_HEADER_BYTES + payload.length;
  const framed = { firstOffset, bytes: Buffer.allocUnsafe(size), ends: new Uint32Array(payloads.length) };
  let next = 0;
  let at = 0;
  return {
    framed,
    frame(upTo: number): void {
      for (; next < upTo; next++) {
        at = writeFrame(framed.bytes, at, firstOffset + next, payloads[next]);
        framed.ends[next] = at;
      }
    },
  };
}

/** One frame as one buffer (tests and tools; the writer frames a whole round into one buffer). */
export function encodeFrame(offset: number, payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(frameSize(payload));
  writeFrame(frame, 0, offset, payload);
  return frame;
}

export interface DecodedFrame {
  readonly offset: number;
  readonly payload: Buffer;
  /** Position of the frame in the decoded buffer. */
  readonly position: number;
}

/**
 * Why decoding stopped:
 * - `end`: the buffer ended exactly on a frame boundary;
 * - `incomplete`: the buffer ends inside a frame (read more, or a torn tail at end of file);
 * - `corrupt`: a frame fails its checks (`reason` says which).
 */
export type DecodeStop = { readonly kind: 'end' } | { readonly kind: 'incomplete'; readonly needBytes: number } | { readonly kind: 'corrupt'; readonly reason: string };

interface DecodeEnd {
  /** Position just after the last good frame. */
  readonly nextPosition: number;
  /** Offset the next frame must carry. */
  readonly nextOffset: number;
  readonly stop: DecodeStop | { readonly kind: 'limit' };
}

export interface DecodeResult extends DecodeEnd {
  readonly frames: DecodedFrame[];
}

/**
 * Records' stored payloads side by side: payload `i` (the event's JSON) is
 * `buffer[starts[i], ends[i])`, at offset `firstOffset + i`. The buffer may
 * be shared with other readers: read it, never change it.
 */
export interface StoredPayloads {
  readonly buffer: Buffer;
  readonly firstOffset: number;
  readonly count: number;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/** Consecutive frames' payloads as positions in the decoded buffer, and where decoding stopped (no object per frame). */
export interface FrameSpans extends StoredPayloads, DecodeEnd {}

/** Room for this many frames first; grows by doubling. */
const MIN_SPANS = 256;

/**
 * Decodes consecutive frames from `buffer`, starting at `start`, expecting the
 * first to carry `expectedOffset` and each next one the following offset.
 * Stops after `maxFrames` frames (`limit`) or at the first frame it cannot
 * accept. `checkCrc` false skips the CRCs, for bytes that never left this
 * process's memory.
 */
export function decodeFrameSpans(buffer: Buffer, start: number, expectedOffset: number, maxFrames = Number.POSITIVE_INFINITY, checkCrc = true): FrameSpans {
  let starts = new Uint32Array(Math.min(maxFrames, MIN_SPANS));
  let ends = new Uint32Array(starts.length);
  let count = 0;
  let position = start;
  const done = (stop: FrameSpans['stop']): FrameSpans => ({ buffer, firstOffset: expectedOffset, count, starts, ends, nextPosition: position, nextOffset: expectedOffset + count, stop });
  for (;;) {
    if (count >= maxFrames) return done({ kind: 'limit' });
    const remaining = buffer.length - position;
    if (remaining === 0) return done({ kind: 'end' });
    if (remaining < FRAME_HEADER_BYTES) return done({ kind: 'incomplete', needBytes: FRAME_HEADER_BYTES });
    const length = buffer.readUInt32BE(position);
    if (length > MAX_PAYLOAD_BYTES) return done(corrupt(`frame length ${length} exceeds ${MAX_PAYLOAD_BYTES}`));
    if (remaining < FRAME_HEADER_BYTES + length) return done({ kind: 'incomplete', needBytes: FRAME_HEADER_BYTES + length });
    const end = position + FRAME_HEADER_BYTES + length;
    if (checkCrc && crc32(buffer.subarray(position + 8, end)) !== buffer.readUInt32BE(position + 4)) return done(corrupt(`CRC mismatch at offset ${expectedOffset + count}`));
    const offset = buffer.readUInt32BE(position + 8) * TWO_POW_32 + buffer.readUInt32BE(position + 12);
    if (offset !== expectedOffset + count) return done(corrupt(`frame carries offset ${offset}, expected ${expectedOffset + count}`));
    if (count === starts.length) [starts, ends] = [grownArray(starts), grownArray(ends)];
    starts[count] = position + FRAME_HEADER_BYTES;
    ends[count] = end;
    count += 1;
    position = end;
  }
}

/** `decodeFrameSpans` with an object per frame, its payload a view into `buffer` (no copy). */
export function decodeFrames(buffer: Buffer, start: number, expectedOffset: number, maxFrames = Number.POSITIVE_INFINITY, checkCrc = true): DecodeResult {
  const spans = decodeFrameSpans(buffer, start, expectedOffset, maxFrames, checkCrc);
  const frames: DecodedFrame[] = [];
  for (let i = 0; i < spans.count; i++) {
    frames.push({ offset: spans.firstOffset + i, payload: buffer.subarray(spans.starts[i], spans.ends[i]), position: spans.starts[i] - FRAME_HEADER_BYTES });
  }
  return { frames, nextPosition: spans.nextPosition, nextOffset: spans.nextOffset, stop: spans.stop };
}

function corrupt(reason: string): DecodeStop {
  return { kind: 'corrupt', reason };
}
