import type { EventEnvelope } from './envelope';

/**
 * An event already serialised: its envelope's JSON as UTF-8 (the Kafka value,
 * the log record), with the envelope fields a log routes and labels it by.
 * Producers that record many events of one type encode them in batches,
 * cheaper than one `JSON.stringify` per envelope (see `BotRequestJsonBatch`).
 */
export interface EncodedEvent {
  readonly type: string;
  readonly version: number;
  readonly id: string;
  readonly key: string;
  readonly json: Buffer;
}

/** The envelope as an `EncodedEvent`; throws when it has no string key. */
export function encodeEnvelope(event: EventEnvelope): EncodedEvent {
  if (typeof event.key !== 'string') throw new Error(`event ${event.id} has no string key`);
  return { type: event.type, version: event.version, id: event.id, key: event.key, json: Buffer.from(JSON.stringify(event), 'utf8') };
}

/**
 * Events of one type serialised one after the other, as a batch encoder
 * writes them: event `i` is `bytes` from `ends[i - 1]` (0 for the first) to
 * `ends[i]`, with id `ids[i]` and key `keys[i]`.
 */
export interface EncodedEventBatch {
  readonly type: string;
  readonly version: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
  readonly ids: readonly string[];
  /**
   * Where every event's id lies in its own JSON, as it is (ASCII, between
   * the quotes): `length` bytes from `offset` on. Given by encoders that
   * write ids without a string (numbered ids), so a log copies them from
   * there; `ids` then makes the strings when read.
   */
  readonly idInJson?: { readonly offset: number; readonly length: number };
  readonly keys: readonly string[];
  /**
   * Memory lent to the log for this append's own encoding (on Kafka, the
   * record batch of a batch that goes whole to one partition): its owner
   * leaves it alone until the append settles. Logs that copy the bytes
   * their own way ignore it.
   */
  readonly scratch?: Buffer;
}

/** Events already serialised: a list, or a batch encoder's output as it is (no object per event). */
export type EncodedEvents = readonly EncodedEvent[] | EncodedEventBatch;

/** How many events `events` holds. */
export function encodedEventCount(events: EncodedEvents): number {
  return isEncodedEventList(events) ? events.length : events.ends.length;
}

/** `events` as a list (a batch's events as views of its bytes). */
export function encodedEventList(events: EncodedEvents): readonly EncodedEvent[] {
  return isEncodedEventList(events) ? events : encodedEvents(events);
}

/** Whether `events` is a list (else a batch). */
export function isEncodedEventList(events: EncodedEvents): events is readonly EncodedEvent[] {
  return Array.isArray(events);
}

/** The batch's events as `EncodedEvent`s, their JSON views of its bytes. */
export function encodedEvents(batch: EncodedEventBatch): EncodedEvent[] {
  const { type, version, bytes, ends, ids, keys } = batch;
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const events = new Array<EncodedEvent>(ids.length);
  for (let i = 0, start = 0; i < ids.length; start = ends[i], i++) events[i] = { type, version, id: ids[i], key: keys[i], json: all.subarray(start, ends[i]) };
  return events;
}
