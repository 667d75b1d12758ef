/**
 * The one versioned envelope every event travels in, on every topic, in the
 * Kafka value, in the log files and in ClickHouse (`type` is the same string
 * everywhere).
 */
export interface EventEnvelope<TType extends string = string, TPayload = unknown> {
  readonly type: TType;
  readonly version: number;
  /** Unique id; projections deduplicate on it. */
  readonly id: string;
  /** ISO 8601 UTC timestamp with milliseconds. */
  readonly occurredAt: string;
  /** Partition key: order is kept among events with the same key. */
  readonly key: string;
  readonly payload: TPayload;
}

export interface EventMeta {
  readonly id: string;
  readonly occurredAt: Date;
  readonly key: string;
}

export function envelope<TType extends string, TPayload>(
  type: TType,
  version: number,
  payload: TPayload,
  meta: EventMeta,
): EventEnvelope<TType, TPayload> {
  return { type, version, id: meta.id, occurredAt: meta.occurredAt.toISOString(), key: meta.key, payload };
}

/**
 * A test for the JSON of an envelope of `type` and `version` as `envelope()`
 * writes it (these keys first, in this order): a reader that hands such
 * events on as bytes can tell their type without parsing them. False says
 * nothing: JSON written otherwise must be parsed to be known.
 */
export function envelopeJsonTest(type: string, version: number): (stored: Uint8Array) => boolean {
  const start = Buffer.from(`{"type":${JSON.stringify(type)},"version":${version},"id":`);
  return (stored) => stored.length > start.length && start.compare(stored, 0, start.length) === 0;
}
