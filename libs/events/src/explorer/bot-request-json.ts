import type { EncodedEvent, EncodedEventBatch } from '../encoded-event';
import { encodedEvents } from '../encoded-event';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, BotRequestRecordedPayload } from './bot-request-recorded.event';
import { grownArray } from '@bpc/domain';
import { JsonBatchWriter } from './json-batch-writer';
import { BotRequestEventIds, EVENT_ID_LENGTH } from './bot-request-event-ids';

/**
 * How the JSON of every `BotRequestRecorded` v1 envelope starts, written by
 * `BotRequestJsonBatch` or by `JSON.stringify` (`envelope()` orders the keys so).
 */
export const BOT_REQUEST_JSON_START = `{"type":"${BOT_REQUEST_RECORDED}","version":1,"id":`;

/** The envelope's keys in their order: the text before each value. */
const ID = Buffer.from(BOT_REQUEST_JSON_START, 'latin1');
/** Where a numbered id lies in its event's JSON: right after the start and its opening quote. */
const NUMBERED_ID_IN_JSON = { offset: ID.length + 1, length: EVENT_ID_LENGTH } as const;
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
/**
 * A served request as the edge records it: the event's payload, with the
 * time it was served in milliseconds (written as the event's `occurredAt`
 * and the payload's `servedAt`, both ISO 8601).
 */
export type RecordedBotRequest = Omit<BotRequestRecordedPayload, 'servedAt'> & { readonly servedAtMs: number };

/** Room per event a batch starts with (a typical event takes about 600 bytes); it grows when needed. */
const INITIAL_BYTES_PER_EVENT = 768;

/**
 * `BotRequestRecorded` v1 events keyed by their website, which occurred when
 * the request was served, serialised one after the other into one buffer as
 * they come: byte for byte the `JSON.stringify` of their envelopes (the
 * spec checks it on hostile strings), without building the envelopes.
 * - When an event's page (website, host, URL, title) or response (status,
 *   bot, user agent, dimension, cache status) is the previous event's, those
 *   bytes are copied from it in one piece.
 * - Otherwise values that repeat across a batch are serialised once per
 *   batch, with the key before them, and copied from there after that.
 * - Ids and URLs are copied as they are when they need no escaping,
 *   timestamps written from the milliseconds (see
 *   `JsonBatchWriter.isoTimestamp`), durations and sizes digit by digit;
 *   numbered ids (see `addNumbered`) straight from their sequence numbers.
 */
export class BotRequestJsonBatch {
  private readonly writer: JsonBatchWriter;
  private ends: Uint32Array<ArrayBuffer>;
  /** The ids given as strings (see `add`). */
  private readonly ids: string[] = [];
  private readonly keys: string[] = [];
  /**
   * The event added last, and where two runs of its JSON are that the next
   * event mostly repeats (a bot fetching one site's pages, a page fetched by
   * several bots): its page (the envelope's key, the website, host, URL and
   * title) and its response (status to cache status).
   */
  private last?: RecordedBotRequest;
  private readonly page = { start: 0, end: 0 };
  private readonly response = { start: 0, end: 0 };

  /**
   * Events are written into `scratch` when given, while it has room (see
   * `JsonBatchWriter`). A batch's events have ids given as strings (`add`),
   * or numbered by `eventIds` (`addNumbered`), not both. With `roomBefore`,
   * that many bytes are left before each event, for the caller to fill (a
   * log's frame header): event `i` then starts `roomBefore` bytes after the
   * previous one's end (`ends[i - 1]`, or 0).
   */
  constructor(
    expectedEvents: number,
    scratch?: Buffer,
    private readonly eventIds?: BotRequestEventIds,
    private readonly roomBefore = 0,
  ) {
    const room = Math.max(1, expectedEvents);
    this.writer = new JsonBatchWriter(room * (INITIAL_BYTES_PER_EVENT + roomBefore), FIELD_TEXTS, scratch);
    this.ends = new Uint32Array(room);
  }

  get count(): number {
    return this.keys.length;
  }

  /**
   * Appends one request's event; one with a field that has no JSON value
   * (undefined), or an invalid time, throws and leaves the batch as it was.
   * The batch compares the next event with `p`: its fields are read-only.
   */
  add(id: string, p: RecordedBotRequest): void {
    if (this.eventIds) throw new TypeError('this batch numbers its events: addNumbered');
    this.addEvent(id, p);
  }

  /**
   * `add` with the id `eventIds` gives sequence number `seq` (the batch's,
   * or those of the recorder `ids` stand for), written straight into the
   * JSON (no string is made).
   */
  addNumbered(seq: number, p: RecordedBotRequest, ids = this.eventIds): void {
    if (!this.eventIds || !ids) throw new TypeError('this batch has no event ids to number its events with: add');
    this.addEvent(seq, p, ids);
  }

  private addEvent(id: string | number, p: RecordedBotRequest, ids?: BotRequestEventIds): void {
    const w = this.writer;
    const start = w.offset;
    let pageStart = 0;
    let responseStart = 0;
    let responseEnd = 0;
    try {
      if (this.roomBefore > 0) w.reserve(this.roomBefore);
      w.bytes(ID);
      if (typeof id === 'number') this.writeNumberedId(ids!, id);
      else w.string(id);
      w.bytes(OCCURRED_AT);
      w.isoTimestamp(p.servedAtMs);
      pageStart = w.offset;
      if (this.last !== undefined && samePage(p, this.last)) w.repeat(this.page.start, this.page.end);
      else {
        w.field(F.key, p.websiteId);
        w.field(F.websiteId, p.websiteId);
        w.field(F.host, p.host);
        w.bytes(URL_);
        w.string(p.url);
        w.field(F.pageTitle, p.pageTitle);
      }
      responseStart = w.offset;
      if (this.last !== undefined && sameResponse(p, this.last)) w.repeat(this.response.start, this.response.end);
      else {
        w.field(F.statusCode, p.statusCode);
        w.field(F.botName, p.botName);
        w.field(F.userAgent, p.userAgent);
        w.field(F.dimensionId, p.dimensionId);
        w.field(F.dimensionName, p.dimensionName);
        w.field(F.cacheStatus, p.cacheStatus);
      }
      responseEnd = w.offset;
      w.bytes(SERVE_TIME_MS);
      w.number(p.serveTimeMs);
      w.bytes(SNAPSHOT_AGE_S);
      w.number(p.snapshotAgeS);
      w.bytes(BYTES);
      w.number(p.bytes);
      w.bytes(SERVED_AT);
      w.isoTimestamp(p.servedAtMs);
      w.bytes(REQUEST_ID);
      w.string(p.requestId);
      w.bytes(END);
    } catch (error) {
      w.rewind(start);
      throw error;
    }
    // Only once the event is in: a refused one leaves bytes that the next event overwrites.
    this.last = p;
    this.page.start = pageStart;
    this.page.end = responseStart;
    this.response.start = responseStart;
    this.response.end = responseEnd;
    const n = this.keys.length;
    if (n === this.ends.length) this.ends = grownArray(this.ends);
    this.ends[n] = w.offset;
    if (typeof id === 'string') this.ids.push(id);
    this.keys.push(p.websiteId);
  }

  /** Id number `seq` of `ids` between quotes, at `NUMBERED_ID_IN_JSON`. */
  private writeNumberedId(ids: BotRequestEventIds, seq: number): void {
    const w = this.writer;
    const at = w.reserve(EVENT_ID_LENGTH + 2);
    w.out[at] = 0x22;
    ids.write(w.out, at + 1, seq);
    w.out[at + 1 + EVENT_ID_LENGTH] = 0x22;
  }

  /** The events added so far (the batch keeps its buffer: add nothing after this); see `withRoom` for a batch with room before its events. */
  encoded(): EncodedEventBatch {
    if (this.roomBefore > 0) throw new TypeError('this batch leaves room before its events: withRoom');
    const n = this.keys.length;
    const fields = { type: BOT_REQUEST_RECORDED, version: 1, bytes: this.writer.out.subarray(0, this.writer.offset), ends: this.ends.subarray(0, n), keys: this.keys };
    if (!this.eventIds) return { ...fields, ids: this.ids };
    let ids: string[] | undefined;
    // Numbered ids as strings only for a log that asks for them (most copy them from where they lie).
    return { ...fields, idInJson: NUMBERED_ID_IN_JSON, get ids() { return (ids ??= idsIn(fields.bytes, fields.ends)); } };
  }

  /**
   * The bytes written so far and where each event's JSON ends, for a batch
   * with room before its events (see the constructor): event `i`'s room
   * starts at `ends[i - 1]` (or 0). The bytes are a view of the batch's own
   * memory (`scratch` if it held them all): add nothing after this.
   */
  withRoom(): { readonly bytes: Buffer; readonly ends: Uint32Array<ArrayBuffer> } {
    return { bytes: this.writer.out.subarray(0, this.writer.offset), ends: this.ends.subarray(0, this.keys.length) };
  }
}

/** The numbered ids of the events ending at `ends` in `bytes`. */
function idsIn(bytes: Uint8Array, ends: Uint32Array): string[] {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { offset, length } = NUMBERED_ID_IN_JSON;
  return Array.from(ends, (_, i) => {
    const start = (i === 0 ? 0 : ends[i - 1]) + offset;
    return all.toString('latin1', start, start + length);
  });
}

/** Whether `p` has the page of `last` (compared with `===`: equal values serialise alike). */
function samePage(p: RecordedBotRequest, last: RecordedBotRequest): boolean {
  return p.websiteId === last.websiteId && p.host === last.host && p.url === last.url && p.pageTitle === last.pageTitle;
}

/** Whether `p` has the response of `last`. */
function sameResponse(p: RecordedBotRequest, last: RecordedBotRequest): boolean {
  return p.statusCode === last.statusCode && p.botName === last.botName && p.userAgent === last.userAgent && p.dimensionId === last.dimensionId && p.dimensionName === last.dimensionName && p.cacheStatus === last.cacheStatus;
}

/**
 * Envelopes as one `BotRequestJsonBatch`; throws for an envelope the edge
 * would not write: not keyed by its website, or not occurring when served
 * (one ISO 8601 time, as `toISOString` writes it).
 */
export function encodeBotRequestBatch(events: readonly BotRequestRecorded[]): EncodedEventBatch {
  const batch = new BotRequestJsonBatch(events.length);
  for (const e of events) {
    if (e.key !== e.payload.websiteId) throw new Error(`event ${e.id} is keyed ${JSON.stringify(e.key)}, not by its website`);
    const servedAtMs = Date.parse(e.payload.servedAt);
    if (e.occurredAt !== e.payload.servedAt || Number.isNaN(servedAtMs) || new Date(servedAtMs).toISOString() !== e.occurredAt) {
      throw new Error(`event ${e.id} does not occur when served, at one ISO 8601 time (${JSON.stringify(e.occurredAt)}, ${JSON.stringify(e.payload.servedAt)})`);
    }
    batch.add(e.id, { ...e.payload, servedAtMs });
  }
  return batch.encoded();
}

/** `encodeBotRequestBatch` as `EncodedEvent`s. */
export function encodeBotRequests(events: readonly BotRequestRecorded[]): EncodedEvent[] {
  return encodedEvents(encodeBotRequestBatch(events));
}
