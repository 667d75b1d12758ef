import { AppError } from '@bpc/domain';
import type { QueueStore } from '@bpc/queue-store';

export const PROJECTION_DEADLINE_MS = 15_000;

/**
 * Waits until the queue projection has applied an event and answers the
 * result it recorded (an HTTP answer that needs projected state waits for it
 * instead of guessing). Polls with a short, growing interval.
 */
export async function waitForProjection<T>(store: Pick<QueueStore, "resultOf">, eventId: string, deadlineMs = PROJECTION_DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let interval = 1;
  for (;;) {
    let result: unknown;
    try {
      result = await store.resultOf(eventId);
    } catch (error) {
      throw new AppError('STORE_UNAVAILABLE', `queue store unavailable (the request is recorded and is applied when the store is back): ${(error as Error).message}`);
    }
    if (result !== undefined) return result as T;
    if (Date.now() >= deadline) {
      throw new AppError('PROJECTION_TIMEOUT', `event ${eventId} is recorded but the queue projection did not apply it within ${deadlineMs} ms`);
    }
    await new Promise((r) => setTimeout(r, interval));
    interval = Math.min(interval * 2, 20);
  }
}
