import type { EventEnvelope } from '@bpc/events';

/** What the worker needs to open its own Kafka event log. */
export interface KafkaAppendWorkerOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly namespace?: string;
}

export type ToWorker = { readonly kind: 'append'; readonly id: number; readonly topic: string; readonly events: readonly EventEnvelope[] } | { readonly kind: 'close' };

export type FromWorker =
  | { readonly kind: 'appended'; readonly id: number; readonly error?: string }
  | { readonly kind: 'log'; readonly level: 'info' | 'warn' | 'error'; readonly fields: object; readonly message: string }
  | { readonly kind: 'closed' };
