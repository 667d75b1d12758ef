import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';

export const SCHEDULER_PAUSED = 'SchedulerPaused';
export const SCHEDULER_RESUMED = 'SchedulerResumed';

/** The whole scheduler of a daemon stopped (or restarted) pulling work. */
export interface SchedulerToggledPayload {
  readonly daemonId: string;
}

export type SchedulerPaused = EventEnvelope<typeof SCHEDULER_PAUSED, SchedulerToggledPayload>;
export type SchedulerResumed = EventEnvelope<typeof SCHEDULER_RESUMED, SchedulerToggledPayload>;

export const schedulerToggledSchema = payloadSchema<SchedulerToggledPayload>()({
  type: 'object',
  required: ['daemonId'],
  additionalProperties: false,
  properties: { daemonId: { type: 'string' } },
});
