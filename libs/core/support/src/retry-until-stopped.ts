import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, DEFAULT_HANDLER_BACKOFF } from './backoff';

export interface RetryHooks {
  /** Each failed attempt, with its number (1 for the first). */
  failed(error: unknown, attempt: number): void;
  /** After every attempt, either way. */
  ended?(): void;
}

/**
 * Runs `attempt` until it succeeds or `signal` aborts, waiting the log's own
 * backoff between failures (100 ms doubling up to 5 s): how a reader keeps
 * trying to follow a log it cannot reach yet (Kafka down at startup) instead
 * of giving up for the life of the process. Resolves with the attempt's
 * value, or undefined once stopped; never rejects.
 */
export async function retryUntilStopped<T>(attempt: () => Promise<T>, signal: AbortSignal, hooks: RetryHooks): Promise<T | undefined> {
  for (let n = 1; !signal.aborted; n += 1) {
    try {
      return await attempt();
    } catch (error) {
      hooks.failed(error, n);
    } finally {
      hooks.ended?.();
    }
    // Cut short by the signal: the rejection it then gives is the end of the wait, nothing more.
    await sleep(backoffDelay(n, DEFAULT_HANDLER_BACKOFF), undefined, { signal }).catch(() => undefined);
  }
  return undefined;
}

/**
 * `retryUntilStopped`, started now and not awaited: `firstAttempt` settles
 * once the first attempt has ended either way (what callers waiting for a
 * normal start look after), `done` once an attempt succeeded or `signal`
 * aborted.
 */
export function retryInBackground<T>(attempt: () => Promise<T>, signal: AbortSignal, failed: RetryHooks['failed']): { readonly firstAttempt: Promise<void>; readonly done: Promise<T | undefined> } {
  let firstAttemptEnded!: () => void;
  const firstAttempt = new Promise<void>((resolve) => (firstAttemptEnded = resolve));
  const done = retryUntilStopped(attempt, signal, { failed, ended: firstAttemptEnded });
  return { firstAttempt, done };
}
