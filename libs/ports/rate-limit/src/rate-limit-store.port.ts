export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** The state of one key's window after a hit. */
export interface RateLimitWindow {
  /** Hits counted in the window so far, this one included. */
  readonly count: number;
  /** When the window ends (ms since the epoch); the count starts again from zero then. */
  readonly resetAtMs: number;
}

/**
 * Fixed-window hit counters per key (an API token), the store of the public
 * API's rate limits.
 *
 * Guarantees, for every adapter:
 * - `hit` counts and reads in one atomic step: concurrent hits of one key
 *   (from one process or, with Redis, from every replica sharing the store)
 *   each get a distinct count, so exactly `limit` of them see `count <= limit`.
 * - Windows are aligned on multiples of `windowMs` since the epoch, computed
 *   from the caller's clock, so replicas agree on window boundaries as far
 *   as their clocks agree.
 * - A window's counter disappears once the window is over; memory does not
 *   grow with the number of windows.
 * - Counters are not durable: a restart (memory) or a Redis flush forgets
 *   them, which only ever lets more requests through.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number, nowMs: number): Promise<RateLimitWindow>;
  /** Readiness: throws with the reason when the store cannot be reached. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Start of the fixed window holding `nowMs`. */
export function windowStart(windowMs: number, nowMs: number): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}
