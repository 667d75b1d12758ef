import type { EventEnvelope, EventTuple, TupleEventType } from '@bpc/events';

/** What the worker needs to open its own Kafka event log. */
export interface KafkaAppendWorkerOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly namespace?: string;
}

/** Events to append: envelopes, or tuples of one type that the worker serialises with the type's batch encoder (cheaper to clone and to encode). */
export type AppendBatch = { readonly events: readonly EventEnvelope[] } | { readonly type: TupleEventType; readonly tuples: readonly EventTuple<TupleEventType>[] };

/** One call of the worker: resolves once the brokers acknowledged the batch. */
export type AppendRequest = { readonly topic: string } & AppendBatch;
