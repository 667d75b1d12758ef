import type { EncodedEventBatch } from '../encoded-event';
import { BotRequestJsonBatch, RecordedBotRequest } from './bot-request-json';
import { MAX_TIME_MS } from './json-batch-writer';
import { grownArray } from '@bpc/domain';
import { BotRequestEventIds } from './bot-request-event-ids';
import { UUID_BYTES, uuidText, writeUuidBytes } from './request-uuid-bytes';

/** The text fields of a recorded request, kept as indexes into its batch's table of distinct strings. */
const TEXT_FIELDS = ['websiteId', 'host', 'url', 'pageTitle', 'botName', 'userAgent', 'dimensionName', 'cacheStatus'] as const;
/** The number fields, and the event's sequence number last (see `BotRequestEventIds`). */
const NUMBER_FIELDS = ['statusCode', 'dimensionId', 'serveTimeMs', 'snapshotAgeS', 'bytes', 'servedAtMs'] as const;
const TEXTS = TEXT_FIELDS.length;
const NUMBERS = NUMBER_FIELDS.length + 1;
const SEQ = NUMBER_FIELDS.length;
const SNAPSHOT_AGE = NUMBER_FIELDS.indexOf('snapshotAgeS');
/** What no text field is: the value met last before the first. */
const NONE = Symbol('none');
/** Least room, in requests, a batch starts with. */
const MIN_ROOM = 64;

/**
 * Recorded bot requests as they cross to the thread that serialises them:
 * request `i` has its text fields at `texts[i * 8 …]` (indexes into
 * `strings`), its numbers at `numbers[i * 7 …]` (a null snapshot age as NaN,
 * the event's sequence number last) and its request id (`requestIdAt`) as a
 * UUID's bytes at `requestUuids[i * 16 …]`, unless `otherRequestIds` holds
 * it. Typed arrays are exactly `requestCount` requests long, in memory of
 * their own.
 */
export interface RecordedBotRequestColumns {
  /** Makes the events' ids with their sequence numbers (`BotRequestEventIds`). */
  readonly idPrefix: string;
  readonly strings: readonly string[];
  readonly texts: Uint32Array;
  readonly numbers: Float64Array;
  readonly requestUuids: Uint8Array;
  /** Request ids that are not UUIDs in lower case (the edge's are), by request. */
  readonly otherRequestIds: ReadonlyMap<number, string>;
}

/**
 * A batch of requests the edge served, captured as columns while they are
 * served: a few stores per request, no serialising and no id to generate on
 * the thread that serves bots (at saturation every microsecond there cost
 * several in throughput). Texts that repeat from request to request (website,
 * host, URL, title, bot, user agent, dimension, cache status) are stored once
 * per batch. Request ids, unique and kept until the batch is handed over, are
 * kept as bytes: as strings they outlived young-generation collections, and
 * copying them doubled the serving thread's scavenge time.
 * `encodeRecordedBotRequests` turns the columns into the events' JSON, in
 * another thread.
 */
export class RecordedBotRequests {
  private readonly strings: string[] = [];
  private readonly indexOf = new Map<string, number>();
  /** Per text field, the value met last and its index: consecutive requests mostly repeat it (no map lookup then). */
  private readonly lastText: unknown[] = new Array<unknown>(TEXTS).fill(NONE);
  private readonly lastIndex = new Uint32Array(TEXTS);
  private texts: Uint32Array<ArrayBuffer>;
  private numbers: Float64Array<ArrayBuffer>;
  private uuids: Uint8Array<ArrayBuffer>;
  private readonly otherIds = new Map<number, string>();
  private n = 0;

  constructor(
    private readonly idPrefix: string,
    expected = MIN_ROOM,
  ) {
    const room = Math.max(MIN_ROOM, expected);
    this.texts = new Uint32Array(room * TEXTS);
    this.numbers = new Float64Array(room * NUMBERS);
    this.uuids = new Uint8Array(room * UUID_BYTES);
  }

  get count(): number {
    return this.n;
  }

  /**
   * Adds one request, its event numbered `seq`. Throws a TypeError, adding
   * nothing, for a request whose event could not be written: a field of the
   * wrong type, or a time a `Date` cannot hold.
   */
  add(request: RecordedBotRequest, seq: number): void {
    const n = this.n;
    if ((n + 1) * NUMBERS > this.numbers.length) this.grow();
    // Checked as they are stored: a request refused half way leaves its slot to the next one (the count did not move).
    const t = n * TEXTS;
    const texts = this.texts;
    texts[t] = this.textIndex(0, request.websiteId);
    texts[t + 1] = this.textIndex(1, request.host);
    texts[t + 2] = this.textIndex(2, request.url);
    texts[t + 3] = this.textIndex(3, request.pageTitle);
    texts[t + 4] = this.textIndex(4, request.botName);
    texts[t + 5] = this.textIndex(5, request.userAgent);
    texts[t + 6] = this.textIndex(6, request.dimensionName);
    texts[t + 7] = this.textIndex(7, request.cacheStatus);
    const v = n * NUMBERS;
    const numbers = this.numbers;
    numbers[v] = numberOf(0, request.statusCode);
    numbers[v + 1] = numberOf(1, request.dimensionId);
    numbers[v + 2] = numberOf(2, request.serveTimeMs);
    numbers[v + 3] = request.snapshotAgeS === null ? Number.NaN : numberOf(3, request.snapshotAgeS);
    numbers[v + 4] = numberOf(4, request.bytes);
    const servedAtMs = numberOf(5, request.servedAtMs);
    if (!(Math.abs(Math.trunc(servedAtMs)) <= MAX_TIME_MS)) throw new TypeError(`recorded bot request: servedAtMs ${servedAtMs} is not a time`);
    numbers[v + 5] = servedAtMs;
    numbers[v + SEQ] = seq;
    const requestId = request.requestId;
    if (typeof requestId !== 'string') throw new TypeError(`recorded bot request: requestId is ${typeof requestId}, not a string`);
    if (!writeUuidBytes(requestId, this.uuids, n * UUID_BYTES)) this.otherIds.set(n, requestId);
    this.n = n + 1;
  }

  /** The requests so far, as columns of their own (the batch may still be added to; `columnsFrom` drops the first ones). */
  columns(): RecordedBotRequestColumns {
    const n = this.n;
    return {
      idPrefix: this.idPrefix,
      strings: this.strings.slice(),
      texts: this.texts.slice(0, n * TEXTS),
      numbers: this.numbers.slice(0, n * NUMBERS),
      requestUuids: this.uuids.slice(0, n * UUID_BYTES),
      otherRequestIds: new Map(this.otherIds),
    };
  }

  private textIndex(field: number, value: string): number {
    if (value === this.lastText[field]) return this.lastIndex[field];
    if (typeof value !== 'string') throw new TypeError(`recorded bot request: ${TEXT_FIELDS[field]} is ${typeof value}, not a string`);
    let index = this.indexOf.get(value);
    if (index === undefined) {
      index = this.strings.push(value) - 1;
      this.indexOf.set(value, index);
    }
    this.lastText[field] = value;
    this.lastIndex[field] = index;
    return index;
  }

  private grow(): void {
    this.texts = grownArray(this.texts);
    this.numbers = grownArray(this.numbers);
    this.uuids = grownArray(this.uuids);
  }
}

/** How many requests the columns hold. */
export function requestCount(columns: RecordedBotRequestColumns): number {
  return columns.numbers.length / NUMBERS;
}

/** The request id of request `i` of the columns. */
export function requestIdAt(columns: RecordedBotRequestColumns, i: number): string {
  const other = columns.otherRequestIds.size === 0 ? undefined : columns.otherRequestIds.get(i);
  return other ?? uuidText(columns.requestUuids, i * UUID_BYTES);
}

/** The request ids of the columns, in order. */
export function requestIdsOf(columns: RecordedBotRequestColumns): string[] {
  return Array.from({ length: requestCount(columns) }, (_, i) => requestIdAt(columns, i));
}

/** The columns without their first `first` requests (a copy). */
export function columnsFrom(columns: RecordedBotRequestColumns, first: number): RecordedBotRequestColumns {
  if (first === 0) return columns;
  const otherRequestIds = new Map([...columns.otherRequestIds].flatMap(([i, id]) => (i < first ? [] : [[i - first, id] as const])));
  return {
    ...columns,
    texts: columns.texts.slice(first * TEXTS),
    numbers: columns.numbers.slice(first * NUMBERS),
    requestUuids: columns.requestUuids.slice(first * UUID_BYTES),
    otherRequestIds,
  };
}

/** The request `i` of the columns, as recorded. */
export function recordedBotRequestAt(columns: RecordedBotRequestColumns, i: number): RecordedBotRequest {
  const { strings, texts, numbers } = columns;
  const t = i * TEXTS;
  const v = i * NUMBERS;
  const snapshotAgeS = numbers[v + SNAPSHOT_AGE];
  return {
    websiteId: strings[texts[t]],
    host: strings[texts[t + 1]],
    url: strings[texts[t + 2]],
    pageTitle: strings[texts[t + 3]],
    botName: strings[texts[t + 4]],
    userAgent: strings[texts[t + 5]],
    dimensionName: strings[texts[t + 6]],
    cacheStatus: strings[texts[t + 7]] as RecordedBotRequest['cacheStatus'],
    statusCode: numbers[v],
    dimensionId: numbers[v + 1],
    serveTimeMs: numbers[v + 2],
    snapshotAgeS: Number.isNaN(snapshotAgeS) ? null : snapshotAgeS,
    bytes: numbers[v + 4],
    servedAtMs: numbers[v + 5],
    requestId: requestIdAt(columns, i),
  };
}

/** Scratch memory for one batch's JSON that a caller reuses (see `encodeRecordedBotRequests`): 1,000 bot requests take about 600 KB. */
export const BATCH_JSON_SCRATCH_BYTES = 1024 * 1024;

/**
 * The `BotRequestRecorded` v1 events of the columns, serialised (see
 * `BotRequestJsonBatch`); their ids from `BotRequestEventIds`. Written into
 * `scratch` when given: the batch's bytes then last until it is reused.
 */
export function encodeRecordedBotRequests(columns: RecordedBotRequestColumns, scratch?: Buffer): EncodedEventBatch {
  const n = requestCount(columns);
  const batch = new BotRequestJsonBatch(n, scratch, new BotRequestEventIds(columns.idPrefix));
  for (let i = 0; i < n; i++) addRecordedBotRequest(batch, columns, i);
  return batch.encoded();
}

/** Adds request `i` of the columns to `batch`, its event numbered by `ids` (the columns' recorder's: see `BotRequestEventIds`). */
export function addRecordedBotRequest(batch: BotRequestJsonBatch, columns: RecordedBotRequestColumns, i: number, ids?: BotRequestEventIds): void {
  batch.addNumbered(columns.numbers[i * NUMBERS + SEQ], recordedBotRequestAt(columns, i), ids);
}

/** The website of request `i` of the columns (its events' key). */
export function websiteIdAt(columns: RecordedBotRequestColumns, i: number): string {
  return columns.strings[columns.texts[i * TEXTS]];
}

/** `value` when it is a number; a TypeError naming number field `field` otherwise. */
function numberOf(field: number, value: number): number {
  if (typeof value !== 'number') throw new TypeError(`recorded bot request: ${NUMBER_FIELDS[field]} is ${typeof value}, not a number`);
  return value;
}
