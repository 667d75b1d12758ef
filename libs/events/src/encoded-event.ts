import type { EventEnvelope } from './envelope';

/**
 * An event already serialised: its envelope's JSON as UTF-8 (the Kafka value,
 * the log record), with the envelope fields a log routes and labels it by.
 * Producers that record many events of one type encode them in batches,
 * cheaper than one `JSON.stringify` per envelope (see `encodeBotRequests`).
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
