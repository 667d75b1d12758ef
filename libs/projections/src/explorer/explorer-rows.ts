import { asExplorerEvent, BOT_REQUEST_JSON_START, type EventEnvelope } from '@bpc/events';
import type { StoredPayloads } from '@bpc/event-log';
import { encodeRows, type EncodedRows } from '@bpc/explorer-store';
import { explorerRows, type TableRows } from './explorer-projection';

/** A batch's rows per table, serialised. */
export type EncodedTables = ReadonlyMap<string, EncodedRows>;

/** Explorer rows of a batch of events, serialised per table; events that are not explorer events are reported by index. */
export interface EncodedBatch {
  readonly tables: EncodedTables;
  readonly skipped: readonly { readonly index: number; readonly type: unknown }[];
}

/** The rows of `events` (pure but for serialising): what the projector inserts for them. */
export function encodeExplorerRows(events: Iterable<EventEnvelope>): EncodedBatch {
  const rows: TableRows = new Map();
  const skipped: { index: number; type: unknown }[] = [];
  let index = 0;
  for (const envelope of events) {
    const event = asExplorerEvent(envelope);
    if (event) explorerRows(event, rows);
    else skipped.push({ index, type: envelope.type });
    index += 1;
  }
  return { tables: new Map([...rows].map(([table, list]) => [table, encodeRows(list)])), skipped };
}

const STORED_BOT_REQUEST_START = Buffer.from(BOT_REQUEST_JSON_START);

/** True for the stored bytes of a `BotRequestRecorded` v1 event, which `bot_request_events` takes as they are. */
export function isStoredBotRequest(payload: Buffer): boolean {
  return isStoredBotRequestAt(payload, 0, payload.length);
}

/** `isStoredBotRequest` of `buffer[start, end)`. */
function isStoredBotRequestAt(buffer: Buffer, start: number, end: number): boolean {
  const length = STORED_BOT_REQUEST_START.length;
  return end - start > length && buffer.compare(STORED_BOT_REQUEST_START, 0, length, start, start + length) === 0;
}

/** True when every payload is a stored `BotRequestRecorded` v1 event (see `isStoredBotRequest`). */
export function allStoredBotRequests(payloads: StoredPayloads): boolean {
  for (let i = 0; i < payloads.count; i++) if (!isStoredBotRequestAt(payloads.buffer, payloads.starts[i], payloads.ends[i])) return false;
  return true;
}

/**
 * Stored events one per line (JSONEachRow): each is one line of JSON, as
 * `JSON.stringify` and `BotRequestJsonBatch` write them (no raw newline). The
 * bytes have a buffer of their own, so they can be transferred to a worker.
 */
export function jsonLines(payloads: readonly Buffer[]): EncodedRows {
  const out = Buffer.allocUnsafeSlow(payloads.reduce((sum, p) => sum + p.length + 1, 0));
  return writeLines(out, payloads.length, (i, at) => payloads[i].copy(out, at));
}

/** `jsonLines` of payloads side by side (the file log's batches), written into memory from `take`: a copy per payload, no object per record. */
export function jsonLinesOf(payloads: StoredPayloads, take: (size: number) => Buffer): EncodedRows {
  const { buffer, count, starts, ends } = payloads;
  let size = count;
  for (let i = 0; i < count; i++) size += ends[i] - starts[i];
  const out = take(size);
  return writeLines(out, count, (i, at) => buffer.copy(out, at, starts[i], ends[i]));
}

/** `count` payloads into `out`, each copied at `at` by `copy` (which answers its length) and followed by a newline. */
function writeLines(out: Buffer, count: number, copy: (i: number, at: number) => number): EncodedRows {
  let at = 0;
  for (let i = 0; i < count; i++) {
    at += copy(i, at);
    out[at++] = 0x0a;
  }
  return { jsonEachRow: out, count };
}
