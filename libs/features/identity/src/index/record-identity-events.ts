import { AppError } from '@bpc/domain';
import { EventEnvelope, TOPICS } from '@bpc/events';
import type { EventLog } from '@bpc/event-log';
import type { IdentityIndex } from './identity-index';

/**
 * Appends identity events, then waits until this process's index has applied the
 * last one, so the caller answers only once its own reads see the change. A refused
 * append is LOG_UNAVAILABLE: "event log unavailable, <notRecorded>: <cause>".
 */
export async function recordIdentityEvents(log: EventLog, index: IdentityIndex, events: readonly EventEnvelope[], notRecorded: string): Promise<void> {
  try {
    await log.append(TOPICS.identity, events);
  } catch (error) {
    throw new AppError('LOG_UNAVAILABLE', `event log unavailable, ${notRecorded}: ${(error as Error).message}`);
  }
  await index.waitFor(events[events.length - 1].id);
}
