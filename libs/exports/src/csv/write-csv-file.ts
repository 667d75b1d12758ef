import { FileHandle, open, rename, rm } from 'node:fs/promises';

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * Writes the engine's CSV bytes to `finalPath` through `<finalPath>.part`,
 * one chunk at a time (never the whole file in memory), fsyncs and renames,
 * so a file under its final name is always complete. Rows are counted by
 * scanning the bytes for record-ending newlines outside quotes (the header
 * line is not a row). A failure removes the partial file.
 *
 * One chunk of read-ahead: the engine produces the next chunk while this one
 * is written and counted (at most two chunks in memory), so engine time and
 * disk time overlap instead of adding up.
 */
export async function writeCsvFile(chunks: AsyncIterable<Uint8Array>, finalPath: string): Promise<{ rowCount: number; sizeBytes: number }> {
  const partPath = `${finalPath}.part`;
  const file = await open(partPath, 'w');
  let lines = 0;
  let sizeBytes = 0;
  let inQuotes = false;
  const iterator = chunks[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<Uint8Array>> | undefined = iterator.next();
  next.catch(() => undefined);
  try {
    for (;;) {
      const step: IteratorResult<Uint8Array> = await next!;
      next = undefined;
      if (step.done) break;
      const chunk = step.value;
      next = iterator.next();
      // Awaited on the next turn; marked handled now, as it may fail while this chunk is written.
      next.catch(() => undefined);
      // The write runs on the libuv pool while the rows are counted here (and the engine makes the next chunk).
      const writing = writeAll(file, chunk);
      const counted = countRecordEnds(chunk, inQuotes);
      lines += counted.ends;
      inQuotes = counted.inQuotes;
      await writing;
      sizeBytes += chunk.length;
    }
    await file.sync();
    await file.close();
    await rename(partPath, finalPath);
    return { rowCount: Math.max(0, lines - 1), sizeBytes };
  } catch (error) {
    // Let a chunk in flight settle, then end the source (releases the engine's stream).
    if (next) await next.catch(() => undefined);
    await iterator.return?.(undefined).catch(() => undefined);
    await file.close().catch(() => undefined);
    await rm(partPath, { force: true });
    throw error;
  }
}

async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let written = 0;
  while (written < chunk.length) written += (await file.write(chunk, written, chunk.length - written)).bytesWritten;
}

/**
 * Newlines outside quoted fields, and whether the chunk ends inside one.
 * Inside quotes it jumps to the next quote natively (`""` closes and reopens,
 * which is right); only the short unquoted stretches are read byte by byte.
 */
export function countRecordEnds(chunk: Uint8Array, startInQuotes: boolean): { ends: number; inQuotes: boolean } {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let inQuotes = startInQuotes;
  let ends = 0;
  let i = 0;
  while (i < bytes.length) {
    if (inQuotes) {
      const close = bytes.indexOf(QUOTE, i);
      if (close < 0) return { ends, inQuotes };
      inQuotes = false;
      i = close + 1;
      continue;
    }
    const byte = bytes[i++];
    if (byte === QUOTE) inQuotes = true;
    else if (byte === NEWLINE) ends++;
  }
  return { ends, inQuotes };
}
