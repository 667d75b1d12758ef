import { grownBuffer } from '@bpc/domain';
import type { EncodedEvent } from '../encoded-event';
import { BOT_REQUEST_RECORDED } from './bot-request-recorded.event';
import type { BotRequestTuple } from './bot-request-tuple';

/**
 * How the JSON of every `BotRequestRecorded` v1 envelope starts, written by
 * `encodeBotRequests` or by `JSON.stringify` (`envelope()` orders the keys so).
 */
export const BOT_REQUEST_JSON_START = `{"type":"${BOT_REQUEST_RECORDED}","version":1,"id":`;

/**
 * The JSON of `botRequestEnvelope(tuple)`, as text between the values: the
 * envelope's keys in their order, each value taken from the tuple position
 * beside it (the website id twice: `key` and `payload.websiteId`).
 */
const LAYOUT: readonly (readonly [text: string, field: number])[] = [
  [BOT_REQUEST_JSON_START, 0],
  [',"occurredAt":', 1],
  [',"key":', 2],
  [',"payload":{"websiteId":', 2],
  [',"host":', 3],
  [',"url":', 4],
  [',"pageTitle":', 5],
  [',"statusCode":', 6],
  [',"botName":', 7],
  [',"userAgent":', 8],
  [',"dimensionId":', 9],
  [',"dimensionName":', 10],
  [',"cacheStatus":', 11],
  [',"serveTimeMs":', 12],
  [',"snapshotAgeS":', 13],
  [',"bytes":', 14],
  [',"servedAt":', 15],
  [',"requestId":', 16],
];
const TEXTS = LAYOUT.map(([text]) => Buffer.from(text, 'latin1'));
const FIELDS = LAYOUT.map(([, field]) => field);
const END = Buffer.from('}}', 'latin1');
/** Strings up to this length that need no escaping are copied character by character (ids, timestamps). */
const INLINE_MAX = 64;
/** Room per event the output starts with; it doubles when an event would not fit. */
const INITIAL_BYTES_PER_EVENT = 1_024;

type Value = BotRequestTuple[number];

/**
 * `BotRequestRecorded` events as `EncodedEvent`s, byte for byte the
 * `JSON.stringify` of their envelopes (the spec checks it on hostile
 * strings), without building the envelopes: the recorder's batches repeat
 * most values (host, URL, title, user agent, bot, dimension), so each
 * distinct value is serialised once per batch and copied as bytes after
 * that, and short plain ASCII strings (ids, timestamps) are copied as they
 * are. All the events share one buffer.
 */
export function encodeBotRequests(tuples: readonly BotRequestTuple[]): EncodedEvent[] {
  const serialised = new Map<Value, Buffer>();
  const jsonOf = (value: Value): Buffer => {
    let bytes = serialised.get(value);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(value), 'utf8');
      serialised.set(value, bytes);
    }
    return bytes;
  };
  let out: Buffer = Buffer.allocUnsafe(Math.max(1, tuples.length) * INITIAL_BYTES_PER_EVENT);
  let offset = 0;
  const ends: number[] = [];
  const pieces: (Buffer | string)[] = new Array(FIELDS.length);
  for (const tuple of tuples) {
    // Sizes first: each value is either JSON bytes or a string copied as is between quotes.
    let size = END.length;
    for (let f = 0; f < FIELDS.length; f++) {
      const value = tuple[FIELDS[f]];
      const piece = isInlineString(value) ? value : jsonOf(value);
      pieces[f] = piece;
      size += TEXTS[f].length + (typeof piece === 'string' ? piece.length + 2 : piece.length);
    }
    if (offset + size > out.length) out = grownBuffer(out, offset, offset + size);
    for (let f = 0; f < FIELDS.length; f++) {
      offset = copyBytes(out, offset, TEXTS[f]);
      const piece = pieces[f];
      offset = typeof piece === 'string' ? copyQuoted(out, offset, piece) : copyBytes(out, offset, piece);
    }
    offset = copyBytes(out, offset, END);
    ends.push(offset);
  }
  return tuples.map((tuple, i) => ({ type: BOT_REQUEST_RECORDED, version: 1, id: tuple[0], key: tuple[2], json: out.subarray(i === 0 ? 0 : ends[i - 1], ends[i]) }));
}

/** A short string of printable ASCII without `"` or `\`: its JSON is the string between quotes. */
function isInlineString(value: Value): value is string {
  if (typeof value !== 'string' || value.length > INLINE_MAX) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function copyQuoted(out: Buffer, offset: number, text: string): number {
  out[offset++] = 0x22;
  for (let i = 0; i < text.length; i++) out[offset++] = text.charCodeAt(i);
  out[offset++] = 0x22;
  return offset;
}

/** Short pieces byte by byte (a native copy costs more than it saves below a few dozen bytes), longer ones with `set`. */
function copyBytes(out: Buffer, offset: number, bytes: Buffer): number {
  const n = bytes.length;
  if (n > 32) out.set(bytes, offset);
  else for (let i = 0; i < n; i++) out[offset + i] = bytes[i];
  return offset + n;
}
