import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';

export const HOST_RECACHE_PAUSED = 'HostRecachePaused';
export const HOST_RECACHE_RESUMED = 'HostRecacheResumed';

/** Draining of a host stopped until `expiresAt` (a later pause overwrites it). */
export interface HostRecachePausedPayload {
  readonly hostId: number;
  /** Epoch milliseconds when the host drains again by itself. */
  readonly expiresAt: number;
}

/** Draining of a host restarts on the next scheduler tick. */
export interface HostRecacheResumedPayload {
  readonly hostId: number;
}

export type HostRecachePaused = EventEnvelope<typeof HOST_RECACHE_PAUSED, HostRecachePausedPayload>;
export type HostRecacheResumed = EventEnvelope<typeof HOST_RECACHE_RESUMED, HostRecacheResumedPayload>;

export const hostRecachePausedSchema = payloadSchema<HostRecachePausedPayload>()({
  type: 'object',
  required: ['hostId', 'expiresAt'],
  additionalProperties: false,
  properties: { hostId: { type: 'integer', minimum: 1 }, expiresAt: { type: 'integer', description: 'epoch milliseconds' } },
});

export const hostRecacheResumedSchema = payloadSchema<HostRecacheResumedPayload>()({
  type: 'object',
  required: ['hostId'],
  additionalProperties: false,
  properties: { hostId: { type: 'integer', minimum: 1 } },
});
