import { JsonLines, type Row } from './explorer-store.port';

/**
 * Serialises rows as JSONEachRow bytes for an insert, in chunks to send one
 * after the other: the engine parses them, so no per-row SQL is ever built. A
 * `Date` becomes `YYYY-MM-DD hh:mm:ss.sss` in UTC (what a `DateTime64(3, 'UTC')`
 * column reads without guessing) and a `bigint` becomes its exact decimal
 * digits; `JsonLines` are sent as they are.
 */
export function toJsonEachRow(rows: readonly Row[]): Buffer[] {
  const chunks: Buffer[] = [];
  let out = Buffer.alloc(0);
  let used = 0;
  // Each row's JSON is written into the current chunk as it is made: joining
  // the strings first and encoding the whole text at the end costs about as
  // much again. Chunks of a megabyte, not one buffer per insert: the allocator
  // reuses them, where fresh memory for a whole insert costs its page faults
  // again on every insert.
  const roomFor = (bytes: number): void => {
    if (used + bytes <= out.length) return;
    if (used > 0) chunks.push(out.subarray(0, used));
    out = Buffer.allocUnsafe(Math.max(bytes, chunks.length === 0 ? FIRST_CHUNK_BYTES : CHUNK_BYTES));
    used = 0;
  };
  for (const row of rows) {
    if (row instanceof JsonLines) {
      // A chunk of their own, not copied; the current chunk's free room stays in use.
      if (used > 0) chunks.push(out.subarray(0, used));
      out = out.subarray(used);
      used = 0;
      if (row.count > 0) chunks.push(row.bytes);
      continue;
    }
    // A replacer takes JSON.stringify off its fast path: rows of plain scalars skip it.
    const json = needsReplacer(row) ? JSON.stringify(row, replaceValue) : JSON.stringify(row);
    // Worst case: 3 UTF-8 bytes per UTF-16 unit (a surrogate pair is 2 units for 4 bytes), and the newline.
    roomFor(json.length * 3 + 1);
    used += out.write(json, used);
    out[used++] = NEWLINE;
  }
  if (used > 0) chunks.push(out.subarray(0, used));
  return chunks;
}

const NEWLINE = 0x0a;
const FIRST_CHUNK_BYTES = 64 * 1024;
const CHUNK_BYTES = 1024 * 1024;

function needsReplacer(row: Readonly<Record<string, unknown>>): boolean {
  for (const key in row) {
    const value = row[key];
    // Dates and bigints may also sit inside arrays or objects.
    if (typeof value === 'bigint' || (typeof value === 'object' && value !== null)) return true;
  }
  return false;
}

/** Parses JSONEachRow text (one JSON object per line) into rows. */
export function parseJsonEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) rows.push(JSON.parse(text.slice(start, end)) as T);
    start = end + 1;
  }
  return rows;
}

// JSON.stringify has already called Date#toJSON when the replacer runs, so the
// original value is read from the holder (`this`).
function replaceValue(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  if (original instanceof Date) return formatUtcDateTime(original);
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export function formatUtcDateTime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid Date in explorer store row');
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
