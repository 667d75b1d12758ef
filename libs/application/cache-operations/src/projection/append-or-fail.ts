import { AppError, validationError } from '@bpc/domain';
import type { EventEnvelope } from '@bpc/events';
import { EventLog, EventTooLargeError } from '@bpc/event-log';

/**
 * Appends, turning an unreachable log into LOG_UNAVAILABLE: the change was
 * not acknowledged, the caller may retry. An event the log refuses for its size is
 * the request's fault (only the URL lists of recache and invalidate get that
 * large): 400 naming `urls`, as retrying the same request cannot succeed.
 */
export async function appendOrFail(log: EventLog, topic: string, events: readonly EventEnvelope[]): Promise<void> {
  try {
    await log.append(topic, events);
  } catch (error) {
    if (error instanceof EventTooLargeError) {
      const limit = error.limitBytes === undefined ? '' : ` (${error.limitBytes} bytes)`;
      throw validationError('urls', `urls take ${error.bytes} bytes once normalised, more than the event log takes as one change${limit}: send them in smaller requests`);
    }
    // Usually nothing was stored; an append that timed out after the broker took it (or whose fsync failed after the write) may still be there.
    throw new AppError('LOG_UNAVAILABLE', `event log unavailable, the request was not acknowledged (most likely not recorded): ${(error as Error).message}`);
  }
}
