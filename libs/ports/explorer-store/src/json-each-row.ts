import { grownBuffer } from '@bpc/support';
import { JsonRow, type Row } from './explorer-store.port';

/**
 * Serialises rows as JSONEachRow bytes for an insert: the engine parses them,
 * so no per-row SQL is ever built. A `Date` becomes `YYYY-MM-DD hh:mm:ss.sss`
 * in UTC (what a `DateTime64(3, 'UTC')` column reads without guessing) and a
 * `bigint` becomes its exact decimal digits; a `JsonRow` is copied as it is.
 */
export function toJsonEachRow(rows: readonly Row[]): Buffer {
  // Each row's JSON is written into one growing buffer as it is made: joining
  // the strings first and encoding the whole text at the end costs about as
  // much again (the joined text is flattened, then transcoded in one piece).
  let out: Buffer = Buffer.allocUnsafe(initialBytes(rows));
  let used = 0;
  for (const row of rows) {
    if (row instanceof JsonRow) {
      if (used + row.json.length + 1 > out.length) out = grownBuffer(out, used, used + row.json.length + 1);
      out.set(row.json, used);
      used += row.json.length;
      out[used++] = NEWLINE;
      continue;
    }
    // A replacer takes JSON.stringify off its fast path: rows of plain scalars skip it.
    const json = needsReplacer(row) ? JSON.stringify(row, replaceValue) : JSON.stringify(row);
    // Worst case: 3 UTF-8 bytes per UTF-16 unit (a surrogate pair is 2 units for 4 bytes), and the newline.
    const room = json.length * 3 + 1;
    if (used + room > out.length) out = grownBuffer(out, used, used + room);
    used += out.write(json, used);
    out[used++] = NEWLINE;
  }
  return out.subarray(0, used);
}

const NEWLINE = 0x0a;
const INITIAL_BYTES_PER_ROW = 512;
const MAX_INITIAL_BYTES = 8 * 1024 * 1024;

/** Room for the rows: exact for `JsonRow`s (a batch of them is copied once), a guess for objects. */
function initialBytes(rows: readonly Row[]): number {
  let json = 0;
  let objects = 0;
  for (const row of rows) {
    if (row instanceof JsonRow) json += row.json.length + 1;
    else objects += 1;
  }
  return json + Math.min(MAX_INITIAL_BYTES, objects * INITIAL_BYTES_PER_ROW);
}

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
