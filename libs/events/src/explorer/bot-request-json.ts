import type { EncodedEvent } from '../encoded-event';
import { BOT_REQUEST_RECORDED } from './bot-request-recorded.event';
import type { BotRequestTuple } from './bot-request-tuple';
import { JsonBatchWriter } from './json-batch-writer';

/**
 * How the JSON of every `BotRequestRecorded` v1 envelope starts, written by
 * `encodeBotRequests` or by `JSON.stringify` (`envelope()` orders the keys so).
 */
export const BOT_REQUEST_JSON_START = `{"type":"${BOT_REQUEST_RECORDED}","version":1,"id":`;

/** The envelope's keys in their order: the text before each value. */
const ID = Buffer.from(BOT_REQUEST_JSON_START, 'latin1');
const OCCURRED_AT = Buffer.from(',"occurredAt":', 'latin1');
const URL_ = Buffer.from(',"url":', 'latin1');
const SERVED_AT = Buffer.from(',"servedAt":', 'latin1');
const REQUEST_ID = Buffer.from(',"requestId":', 'latin1');
const SERVE_TIME_MS = Buffer.from(',"serveTimeMs":', 'latin1');
const SNAPSHOT_AGE_S = Buffer.from(',"snapshotAgeS":', 'latin1');
const BYTES = Buffer.from(',"bytes":', 'latin1');
const END = Buffer.from('}}', 'latin1');
/** Fields whose values repeat across a batch, each written with its key's text before it (see `JsonBatchWriter.field`). */
const REPEATED = ['key', 'websiteId', 'host', 'pageTitle', 'statusCode', 'botName', 'userAgent', 'dimensionId', 'dimensionName', 'cacheStatus'] as const;
const FIELD_TEXTS = REPEATED.map((name) => (name === 'websiteId' ? ',"payload":{"websiteId":' : `,"${name}":`));
const F = Object.fromEntries(REPEATED.map((name, index) => [name, index])) as Readonly<Record<(typeof REPEATED)[number], number>>;
/** Room per event the output starts with (a typical event takes about 600 bytes); it grows when needed. */
const INITIAL_BYTES_PER_EVENT = 768;

/**
 * `BotRequestRecorded` events as `EncodedEvent`s, byte for byte the
 * `JSON.stringify` of their envelopes (the spec checks it on hostile
 * strings), without building the envelopes, written field by field into one
 * buffer that all the events share. Values that repeat across a batch (host,
 * title, user agent, bot, dimension, status) are serialised once per batch,
 * with the key before them, and copied after that; ids, timestamps and URLs
 * are copied as they are when they need no escaping, and times and sizes
 * written digit by digit.
 */
export function encodeBotRequests(tuples: readonly BotRequestTuple[]): EncodedEvent[] {
  const { bytes, ends } = encodeBotRequestBatch(tuples);
  return botRequestEvents(tuples, bytes, ends);
}

/** The JSON of every event, one after the other in `bytes`; event `i` ends at `ends[i]` (what `encodeBotRequests` shares out). */
export interface BotRequestBatchJson {
  readonly bytes: Buffer;
  readonly ends: Uint32Array;
}

/** `encodeBotRequests` without the `EncodedEvent`s: the bytes a thread that only encodes hands back. */
export function encodeBotRequestBatch(tuples: readonly BotRequestTuple[]): BotRequestBatchJson {
  const n = tuples.length;
  const w = new JsonBatchWriter(Math.max(1, n) * INITIAL_BYTES_PER_EVENT, FIELD_TEXTS);
  const ends = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const t = tuples[i];
    w.bytes(ID);
    w.string(t[0]);
    w.bytes(OCCURRED_AT);
    w.string(t[1]);
    w.field(F.key, t[2]);
    w.field(F.websiteId, t[2]);
    w.field(F.host, t[3]);
    w.bytes(URL_);
    w.string(t[4]);
    w.field(F.pageTitle, t[5]);
    w.field(F.statusCode, t[6]);
    w.field(F.botName, t[7]);
    w.field(F.userAgent, t[8]);
    w.field(F.dimensionId, t[9]);
    w.field(F.dimensionName, t[10]);
    w.field(F.cacheStatus, t[11]);
    w.bytes(SERVE_TIME_MS);
    w.number(t[12]);
    w.bytes(SNAPSHOT_AGE_S);
    w.number(t[13]);
    w.bytes(BYTES);
    w.number(t[14]);
    w.bytes(SERVED_AT);
    w.string(t[15]);
    w.bytes(REQUEST_ID);
    w.string(t[16]);
    w.bytes(END);
    ends[i] = w.offset;
  }
  return { bytes: w.out.subarray(0, w.offset), ends };
}

/** The `EncodedEvent`s of `tuples` whose JSON `encodeBotRequestBatch` wrote. */
export function botRequestEvents(tuples: readonly BotRequestTuple[], bytes: Buffer, ends: Uint32Array): EncodedEvent[] {
  const events = new Array<EncodedEvent>(tuples.length);
  for (let i = 0, start = 0; i < tuples.length; start = ends[i], i++) events[i] = { type: BOT_REQUEST_RECORDED, version: 1, id: tuples[i][0], key: tuples[i][2], json: bytes.subarray(start, ends[i]) };
  return events;
}
