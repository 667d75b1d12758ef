import { AppError } from '@bpc/domain';
import type { EventEnvelope } from '@bpc/events';
import type { EventLog } from '@bpc/event-log';
import { appendOrFail } from './append-or-fail';
import { waitForProjection } from './wait-for-projection';

/** A store that records, per event id, what applying the event did. */
export interface ProjectedStore {
  check(): Promise<void>;
  resultOf(eventId: string): Promise<unknown | undefined>;
}

/**
 * The write path of every cache and queue command (these and the daemon's):
 * refuse up front when the store is unreachable (so no event is recorded that
 * the caller was told failed), append the event durably, then wait for the
 * projection's recorded result.
 */
export async function recordAndProject<T>(log: EventLog, store: ProjectedStore, topic: string, event: EventEnvelope): Promise<T> {
  try {
    await store.check();
  } catch (error) {
    throw new AppError('STORE_UNAVAILABLE', `queue store unavailable, nothing was changed: ${(error as Error).message}`);
  }
  await appendOrFail(log, topic, [event]);
  return waitForProjection<T>(store, event.id);
}
