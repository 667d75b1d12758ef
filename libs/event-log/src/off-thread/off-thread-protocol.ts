import type { EventEnvelope } from '@bpc/events';
import type { PackedEventBatch } from './packed-event-batch';

/** What the worker needs to open its own Kafka event log. */
export interface KafkaAppendWorkerOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly namespace?: string;
}

/** Events to append: envelopes, or events serialised already (cheaper to clone and nothing left to encode). */
export type AppendBatch = { readonly events: readonly EventEnvelope[] } | { readonly encoded: PackedEventBatch };

/** One call of the worker: resolves once the brokers acknowledged the batch. */
export type AppendRequest = { readonly topic: string } & AppendBatch;
