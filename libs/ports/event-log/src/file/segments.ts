import { open, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from '@bpc/durable-fs';
import { FRAME_HEADER_BYTES, FrameSpans, frameSize } from './record-framing';

/** A sparse index entry: the frame of `offset` starts at byte `position`. */
export interface IndexEntry {
  readonly offset: number;
  readonly position: number;
}

/**
 * One segment file, named by the offset of its first record. Only the last
 * segment of a partition is written to; the others are closed and immutable.
 */
export interface Segment {
  readonly base: number;
  readonly file: string;
  /** Bytes of acknowledged frames; readers never read past it. */
  size: number;
  /** Offset after the last acknowledged record. */
  end: number;
  closed: boolean;
  /** When the segment last received records, for retention. */
  lastWriteMs: number;
  /** Ascending, starts with `{ base, 0 }`; one entry per INDEX_INTERVAL bytes at most. */
  readonly index: IndexEntry[];
}

const SEGMENT_NAME = /^(\d{20})\.log$/;
/** Bytes between two entries of a segment's sparse index, at least. */
const INDEX_INTERVAL = 64 * 1024;

/** The segment holding `offset`: the last whose base is not above it (`segments` in base order). */
export function segmentOf(segments: readonly Segment[], offset: number): Segment {
  return lastAtOrBelow(segments, offset, (segment) => segment.base);
}

/** Index entries for decoded frames, `position` being where the decoded buffer starts in the segment. */
export function indexFrames(segment: Segment, spans: FrameSpans, position: number): void {
  for (let i = 0; i < spans.count; i++) addIndexEntry(segment, spans.firstOffset + i, position + spans.starts[i] - FRAME_HEADER_BYTES);
}

/** Splits a round where the active segment would exceed `segmentBytes`; a chunk after a split starts a new segment. */
export function splitAtSegmentLimit(payloads: readonly Buffer[], activeSize: number, segmentBytes: number): { rollFirst: boolean; payloads: Buffer[] }[] {
  const chunks: { rollFirst: boolean; payloads: Buffer[] }[] = [{ rollFirst: false, payloads: [] }];
  let used = activeSize;
  for (const payload of payloads) {
    const size = frameSize(payload);
    if (used > 0 && used + size > segmentBytes) {
      chunks.push({ rollFirst: true, payloads: [] });
      used = 0;
    }
    chunks[chunks.length - 1].payloads.push(payload);
    used += size;
  }
  return chunks.filter((chunk) => chunk.payloads.length > 0);
}

export function addIndexEntry(segment: Segment, offset: number, position: number): void {
  const last = segment.index[segment.index.length - 1];
  if (offset > last.offset && position >= last.position + INDEX_INTERVAL) segment.index.push({ offset, position });
}

/** The index entry nearest below `offset`. */
export function nearestEntry(index: readonly IndexEntry[], offset: number): IndexEntry {
  return lastAtOrBelow(index, offset, (entry) => entry.offset);
}

/** Binary search: the last of `items` (ascending by `keyOf`) whose key is not above `value`; the first when none is. */
function lastAtOrBelow<T>(items: readonly T[], value: number, keyOf: (item: T) => number): T {
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (keyOf(items[mid]) <= value) low = mid;
    else high = mid - 1;
  }
  return items[low];
}

function segmentFileName(base: number): string {
  return `${String(base).padStart(20, '0')}.log`;
}

/** The segments of a partition directory, in base order; all but the last closed. */
export async function listSegments(dir: string): Promise<Segment[]> {
  const bases = (await readdir(dir))
    .map((name) => SEGMENT_NAME.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (const [i, base] of bases.entries()) {
    const file = path.join(dir, segmentFileName(base));
    const info = await stat(file);
    const end = i + 1 < bases.length ? bases[i + 1] : base;
    segments.push({ base, file, size: info.size, end, closed: i + 1 < bases.length, lastWriteMs: info.mtimeMs, index: [{ offset: base, position: 0 }] });
  }
  return segments;
}

/** A new empty segment file, durably; none is left behind when that fails (a later roll creates it again). */
export async function createSegment(dir: string, base: number): Promise<Segment> {
  const file = path.join(dir, segmentFileName(base));
  const handle = await open(file, 'wx');
  try {
    await handle.close();
    await fsyncDir(dir);
  } catch (error) {
    await unlink(file).catch(() => undefined);
    throw error;
  }
  return { base, file, size: 0, end: base, closed: false, lastWriteMs: Date.now(), index: [{ offset: base, position: 0 }] };
}
