import { setTimeout as sleep } from 'node:timers/promises';

/** How often a paused projection looks whether serving is still saturated. */
const POLL_MS = 100;

export interface YieldToServingOptions {
  /** Serving in this process is saturated now (see `ServingLoad`). */
  readonly saturated: () => boolean;
  /** Records the projection has yet to read (its subscription's lag). */
  readonly behind: () => Promise<number>;
  /** Longest pause; 0 never pauses. */
  readonly maxPauseMs: number;
  /** A catch-up ends when no more than this many records are left to read. */
  readonly caughtUpAt: number;
  /** Called when a pause begins... */
  readonly pausing?: () => void;
  /** ...and with its length, once it ended. */
  readonly paused?: (ms: number) => void;
}

/**
 * Holds a projection back while serving in its process is saturated: before
 * each batch, `turn` waits until serving is not, or `maxPauseMs` have passed.
 * A pause that ran out is followed by a catch-up: while it is more than
 * `caughtUpAt` records behind, the projection goes on, saturated or not, and
 * only then may pause again. Under sustained saturation it so alternates
 * between a pause and a catch-up, never more than `maxPauseMs` plus its
 * catch-up behind; after a burst it catches up at once.
 */
export class YieldToServing {
  private catchingUp = false;

  constructor(private readonly options: YieldToServingOptions) {}

  /** Resolves when the next batch may be projected; a pause ends early when `signal` aborts. */
  async turn(signal: AbortSignal): Promise<void> {
    const { saturated, behind, maxPauseMs, caughtUpAt, pausing, paused } = this.options;
    if (maxPauseMs === 0 || signal.aborted || !saturated()) {
      this.catchingUp = false;
      return;
    }
    // A lag that cannot be read counts as behind: the projection goes on rather than pause blind.
    if (this.catchingUp && (await behind().catch(() => Number.POSITIVE_INFINITY)) > caughtUpAt) return;
    const started = Date.now();
    const deadline = started + maxPauseMs;
    pausing?.();
    while (!signal.aborted && saturated() && Date.now() < deadline) {
      await sleep(Math.min(POLL_MS, deadline - Date.now()), undefined, { signal }).catch(() => undefined);
    }
    this.catchingUp = true;
    paused?.(Date.now() - started);
  }
}
