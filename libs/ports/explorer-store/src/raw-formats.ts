import type { RawFormat } from './explorer-store.port';

export const RAW_FORMATS: readonly RawFormat[] = [
  'CSV',
  'CSVWithNames',
  'TabSeparated',
  'TabSeparatedWithNames',
  'JSONEachRow',
  'JSONCompactEachRow',
];

/** The format name is appended to SQL by the server adapter, so only known names pass. */
export function assertRawFormat(format: string): RawFormat {
  if (!(RAW_FORMATS as readonly string[]).includes(format)) {
    throw new RangeError(`unsupported raw format ${JSON.stringify(format)}; use one of ${RAW_FORMATS.join(', ')}`);
  }
  return format as RawFormat;
}

const NEWLINE = 0x0a;
const DOUBLE_QUOTE = 0x22;

/**
 * chDB formats every streamed chunk as its own document, so a `…WithNames`
 * format repeats the header line at the top of each chunk. The returned
 * function passes the first chunk through and cuts that exact header from the
 * following ones, giving the single-header bytes a server sends.
 */
export function createHeaderDeduplicator(format: RawFormat): (chunk: Uint8Array) => Uint8Array {
  if (!format.endsWith('WithNames')) return (chunk) => chunk;
  let header: Uint8Array | undefined;
  return (chunk) => {
    if (header === undefined) {
      header = chunk.subarray(0, headerLength(chunk, format));
      return chunk;
    }
    if (!startsWith(chunk, header)) throw new Error(`${format} chunk does not start with the header of the first chunk`);
    return chunk.subarray(header.length);
  };
}

/** Bytes of the header line, newline included; CSV names may hold quoted newlines. */
export function headerLength(chunk: Uint8Array, format: RawFormat): number {
  const quoted = format.startsWith('CSV');
  let inQuotes = false;
  for (let i = 0; i < chunk.length; i++) {
    const byte = chunk[i];
    if (quoted && byte === DOUBLE_QUOTE) inQuotes = !inQuotes;
    else if (byte === NEWLINE && !inQuotes) return i + 1;
  }
  return chunk.length;
}

function startsWith(chunk: Uint8Array, prefix: Uint8Array): boolean {
  if (chunk.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (chunk[i] !== prefix[i]) return false;
  return true;
}

/** Rows of a raw format's bytes counted as they stream by, for adapters whose engine reports no row count. */
export interface RecordCounter {
  add(chunk: Uint8Array): void;
  /** Records seen so far, the header line of a `…WithNames` format not counted. */
  readonly rows: number;
}

/**
 * Counts record-ending newlines. CSV may hold raw newlines inside quoted
 * fields, so CSV bytes are read with their quote state (carried across
 * chunks); the other raw formats escape newlines in values, so every newline
 * ends a record.
 */
export function createRecordCounter(format: RawFormat): RecordCounter {
  const headerLines = format.endsWith('WithNames') ? 1 : 0;
  const quoted = format.startsWith('CSV');
  let ends = 0;
  let inQuotes = false;
  return {
    add(chunk) {
      if (quoted) {
        const counted = countCsvRecordEnds(chunk, inQuotes);
        ends += counted.ends;
        inQuotes = counted.inQuotes;
      } else {
        ends += countNewlines(chunk);
      }
    },
    get rows() {
      return Math.max(0, ends - headerLines);
    },
  };
}

/**
 * Newlines outside quoted CSV fields, and whether the chunk ends inside one.
 * Inside quotes it jumps to the next quote natively (`""` closes and reopens,
 * which is right); only the short unquoted stretches are read byte by byte.
 */
export function countCsvRecordEnds(chunk: Uint8Array, startInQuotes: boolean): { ends: number; inQuotes: boolean } {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let inQuotes = startInQuotes;
  let ends = 0;
  let i = 0;
  while (i < bytes.length) {
    if (inQuotes) {
      const close = bytes.indexOf(DOUBLE_QUOTE, i);
      if (close < 0) return { ends, inQuotes };
      inQuotes = false;
      i = close + 1;
      continue;
    }
    const byte = bytes[i++];
    if (byte === DOUBLE_QUOTE) inQuotes = true;
    else if (byte === NEWLINE) ends++;
  }
  return { ends, inQuotes };
}

function countNewlines(chunk: Uint8Array): number {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let ends = 0;
  for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, i + 1)) ends++;
  return ends;
}
