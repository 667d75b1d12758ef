/**
 * The most each step of a graceful shutdown may take (see `stopApps`). A step
 * still running at its bound is logged and left behind, so one slow step
 * never costs the later ones their turn. `shutdown_grace_ms`, after which the
 * process exits anyway, must be larger than their sum (the configuration
 * refuses less).
 */
export const SHUTDOWN_BOUNDS_MS = {
  /** In-flight requests of every HTTP app, drained together; connections still open then are closed. Covers the edge's default 20 s render wait. */
  httpDrain: 20_000,
  /** Each app's own work once its server stopped, apps in parallel: the edge's recording flush (10 s + 2 s), the scheduler's renders (10 s), exports (8 s + 3 s). */
  appStop: 13_000,
  /** The projector, after every other app: its batch in progress, inserts and commits. */
  projectorStop: 10_000,
  /** Snapshots, then the stores and the renderer. */
  storesClose: 10_000,
  /** The event log, last: its flush and commits. */
  eventLogClose: 5_000,
} as const;

/** 58 s: `shutdown_grace_ms` must be larger. */
export const SHUTDOWN_BOUNDS_TOTAL_MS = Object.values(SHUTDOWN_BOUNDS_MS).reduce((sum, ms) => sum + ms, 0);

/** Resolves true once `work` settled, false if `ms` passed first (the work goes on, unwatched). */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
