import { asExplorerEvent, asRenderEvent, BOT_REQUEST_RECORDED, RENDER_RECORDED, type EventEnvelope } from '@bpc/events';
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
    const event = asExplorerEvent(envelope) ?? asRenderEvent(envelope);
    if (event) explorerRows(event, rows);
    else skipped.push({ index, type: envelope.type });
    index += 1;
  }
  return { tables: new Map([...rows].map(([table, list]) => [table, encodeRows(list)])), skipped };
}

/** How the JSON of every `BotRequestRecorded` v1 envelope starts (`envelope()` orders its keys so). */
const STORED_BOT_REQUEST_START = Buffer.from(`{"type":"${BOT_REQUEST_RECORDED}","version":1,"id":`);

/** True for the stored bytes of a `BotRequestRecorded` v1 event, which `bot_request_events` takes as they are. */
export function isStoredBotRequest(payload: Buffer): boolean {
  const length = STORED_BOT_REQUEST_START.length;
  return payload.length > length && payload.compare(STORED_BOT_REQUEST_START, 0, length, 0, length) === 0;
}

/** How the JSON of every `RenderRecorded` v1 envelope starts. */
const STORED_RENDER_RECORDED_START = Buffer.from(`{"type":"${RENDER_RECORDED}","version":1,"id":`);

/** True for the stored bytes of a `RenderRecorded` v1 event, which `render_recorded_events` takes as they are. */
export function isStoredRenderRecorded(payload: Buffer): boolean {
  const length = STORED_RENDER_RECORDED_START.length;
  return payload.length > length && payload.compare(STORED_RENDER_RECORDED_START, 0, length, 0, length) === 0;
}

/**
 * Stored events one per line (JSONEachRow): each is one line of JSON, as
 * `JSON.stringify` writes it (no raw newline). The bytes have a buffer of
 * their own, so they can be transferred to a worker.
 */
export function jsonLines(payloads: readonly Buffer[]): EncodedRows {
  const out = Buffer.allocUnsafeSlow(payloads.reduce((sum, p) => sum + p.length + 1, 0));
  let at = 0;
  for (const payload of payloads) {
    at += payload.copy(out, at);
    out[at++] = 0x0a;
  }
  return { jsonEachRow: out, count: payloads.length };
}
