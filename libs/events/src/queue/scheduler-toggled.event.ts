import type { EventEnvelope } from '../envelope';
import type { JsonSchema } from '../json-schema';

export const SCHEDULER_PAUSED = 'SchedulerPaused';
export const SCHEDULER_RESUMED = 'SchedulerResumed';

/** The whole scheduler of a daemon stopped (or restarted) pulling work. */
export interface SchedulerToggledPayload {
  readonly daemonId: string;
}

export type SchedulerPaused = EventEnvelope<typeof SCHEDULER_PAUSED, SchedulerToggledPayload>;
export type SchedulerResumed = EventEnvelope<typeof SCHEDULER_RESUMED, SchedulerToggledPayload>;

export const schedulerToggledSchema: JsonSchema = {
  type: 'object',
  required: ['daemonId'],
  additionalProperties: false,
  properties: { daemonId: { type: 'string' } },
};
