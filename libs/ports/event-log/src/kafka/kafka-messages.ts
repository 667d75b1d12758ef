import { CompressionTypes, Message } from 'kafkajs';
import type { EventEnvelope } from '@bpc/events';

/** Appends holding an event at least this large are sent GZIP-compressed (a URL list shrinks about tenfold). */
const COMPRESS_FROM_BYTES = 64 * 1024;

/** Large events (a recache of thousands of URLs) go GZIP-compressed, to fit under the brokers' message size limit; small ones as they are. */
export function compressionFor(largestEventBytes: number): CompressionTypes {
  return largestEventBytes >= COMPRESS_FROM_BYTES ? CompressionTypes.GZIP : CompressionTypes.None;
}

/** What kafkajs is handed for `events`, and how: the size of the largest event decides the compression. */
export interface KafkaMessages {
  readonly messages: Message[];
  readonly largest: number;
  readonly compression: CompressionTypes;
}

/**
 * The events as Kafka messages: the key is the event's key, the value its
 * JSON envelope, headers carry `type`, `version` and `id`. Throws, before
 * anything is sent, for an event without a string key.
 */
export function kafkaMessagesOf(events: readonly EventEnvelope[]): KafkaMessages {
  let largest = 0;
  const messages = events.map((event): Message => {
    if (typeof event.key !== 'string') throw new Error(`event ${event.id} has no string key`);
    const value = Buffer.from(JSON.stringify(event), 'utf8');
    largest = Math.max(largest, value.length);
    return { key: event.key, value, headers: { type: event.type, version: String(event.version), id: event.id } };
  });
  return { messages, largest, compression: compressionFor(largest) };
}

