import { open, unlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { LogSink } from '@bpc/support';
import { readAt, writeFully } from '@bpc/durable-fs';
import { decodeFrameSpans, FrameSpans } from './record-framing';
import { indexFrames, Segment } from './segments';

/** Bytes read at a time while a tail is checked at open. */
const RECOVERY_CHUNK = 4 * 1024 * 1024;
/** The file a repair writes to learn whether the disk takes writes again (see `writeProbe`); removed after. */
const PROBE_FILE = '.append-probe';
const PROBE_BYTES = 64 * 1024;

/**
 * Scans the last segment and cuts anything after the last valid frame: a
 * frame cut short or failing its CRC there was never acknowledged (an append
 * resolves only after its fsync). The cut bytes are kept beside the segment
 * for inspection, in case the damage was not a torn tail.
 */
export async function recoverTail(segment: Segment, where: { topic: string; partition: number }, log: LogSink): Promise<void> {
  const handle = await open(segment.file, 'r+');
  try {
    const fileSize = (await handle.stat()).size;
    let position = 0;
    let offset = segment.base;
    let stop: FrameSpans['stop'] = { kind: 'end' };
    let length = RECOVERY_CHUNK;
    while (position < fileSize) {
      const buffer = await readAt(handle, position, Math.min(length, fileSize - position));
      const result = decodeFrameSpans(buffer, 0, offset);
      indexFrames(segment, result, position);
      position += result.nextPosition;
      offset = result.nextOffset;
      stop = result.stop;
      if (stop.kind === 'corrupt') break;
      if (stop.kind === 'incomplete') {
        // A frame running past the end of the file is the torn tail; one running past the chunk needs a bigger read.
        if (position + stop.needBytes > fileSize) break;
        length = Math.max(RECOVERY_CHUNK, stop.needBytes);
      }
    }
    if (position < fileSize) await cutTail(handle, segment, position, fileSize, stop, where, log);
    // Frames written by a killed process may still sit only in the page cache; make them durable before anyone reads them.
    else await handle.datasync();
    segment.size = position;
    segment.end = offset;
  } finally {
    await handle.close();
  }
}

async function cutTail(
  handle: FileHandle,
  segment: Segment,
  position: number,
  fileSize: number,
  stop: FrameSpans['stop'],
  where: { topic: string; partition: number },
  log: LogSink,
): Promise<void> {
  const tail = await readAt(handle, position, fileSize - position);
  const keptAs = `${segment.file}.cut-${Date.now()}`;
  await writeFile(keptAs, tail);
  await handle.truncate(position);
  await handle.datasync();
  log.warn(
    { ...where, segment: segment.file, validBytes: position, cutBytes: fileSize - position, reason: 'reason' in stop ? stop.reason : stop.kind, keptAs },
    'event log: cut a torn or corrupt tail off the last segment',
  );
}

/** Writes and syncs PROBE_BYTES in a file of its own in `dir`, then removes it: succeeds once the disk takes writes again. */
export async function writeProbe(dir: string): Promise<void> {
  const file = path.join(dir, PROBE_FILE);
  try {
    const handle = await open(file, 'w');
    try {
      await writeFully(handle, Buffer.alloc(PROBE_BYTES), 0);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  } finally {
    await removeProbe(dir);
  }
}

/** Removes a probe file (left by a process killed during a repair too). */
export async function removeProbe(dir: string): Promise<void> {
  await unlink(path.join(dir, PROBE_FILE)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
