import { setTimeout as sleep } from 'node:timers/promises';

/** Between two reads of the lag while waiting for a reader to catch up, unless told. */
const POLL_MS = 10;

/**
 * Waits until a reader has read everything the log holds (`lag` reads 0):
 * true then, or once `signal` aborts (the caller is stopping and looks at
 * that itself); false when `withinMs` passed first.
 */
export async function caughtUpWithin(lag: () => Promise<number>, withinMs: number, signal?: AbortSignal, pollMs = POLL_MS): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!signal?.aborted && (await lag()) > 0) {
    if (Date.now() > deadline) return false;
    await sleep(pollMs);
  }
  return true;
}
