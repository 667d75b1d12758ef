/** Retry delays for a partition whose handler keeps failing: exponential, capped, with a little jitter. */
export interface BackoffOptions {
  /** First delay after a failure (ms). */
  readonly initialMs: number;
  /** Upper bound (ms). */
  readonly maxMs: number;
}

export const DEFAULT_HANDLER_BACKOFF: BackoffOptions = { initialMs: 100, maxMs: 5_000 };

/** Delay before retry number `attempt` (1 for the first retry). */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const exponential = options.initialMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(options.maxMs, exponential);
  // ±20 % so partitions failing together do not retry in lockstep.
  return Math.round(capped * (0.8 + Math.random() * 0.4));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
