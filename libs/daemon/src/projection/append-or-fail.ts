import { AppError } from '@bpc/domain';
import type { EventEnvelope } from '@bpc/events';
import type { EventLog } from '@bpc/event-log';

/** Appends, turning an unreachable log into LOG_UNAVAILABLE: nothing was accepted, the caller may retry. */
export async function appendOrFail(log: EventLog, topic: string, events: readonly EventEnvelope[]): Promise<void> {
  try {
    await log.append(topic, events);
  } catch (error) {
    throw new AppError('LOG_UNAVAILABLE', `event log unavailable, nothing was recorded: ${(error as Error).message}`);
  }
}
