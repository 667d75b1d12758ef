import type { EventEnvelope, RecordedBotRequestColumns } from '@bpc/events';

/** What the worker needs to open its own Kafka event log. */
export interface KafkaAppendWorkerOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly namespace?: string;
}

/** Events to append: envelopes, or recorded bot requests (their events serialised in the worker). */
export type AppendBatch = { readonly events: readonly EventEnvelope[] } | { readonly botRequests: readonly RecordedBotRequestColumns[] };

/** One call of the worker: resolves once the brokers acknowledged the batch. */
export type AppendRequest = { readonly topic: string } & AppendBatch;
