import type { LogSink } from '@bpc/support';
import type { CacheBodies } from './cache-bodies';

/** When and how the orphan sweep runs (see `OrphanSweep`). */
export interface OrphanSweepOptions {
  /** A body younger than this is never collected: it may belong to a put in flight (default 10 minutes). */
  readonly graceMs?: number;
  /** Time between two sweeps (default 1 hour); 0 sweeps only when asked (`sweepOrphans`). */
  readonly intervalMs?: number;
  /** Bodies judged per reference check and removal (default 500). */
  readonly batch?: number;
  /** The clock a body's age is judged by, against the store's modification times (default `Date.now`). */
  readonly clock?: () => number;
}

export const DEFAULT_ORPHAN_GRACE_MS = 10 * 60_000;
export const DEFAULT_ORPHAN_SWEEP_INTERVAL_MS = 60 * 60_000;
const DEFAULT_BATCH = 500;
/** The first sweep of a process: soon after open, not during it (the file adapter collects at open already). */
const FIRST_SWEEP_DELAY_MS = 30_000;

/** What one sweep did. */
export interface SweepReport {
  /** Bodies listed under the prefix. */
  readonly listed: number;
  /** Bodies old enough to be judged and not referenced: removed. */
  readonly removed: number;
}

/**
 * Answers which of `bodyPaths` no entry references, claiming them: once
 * claimed, a body can never become an entry's (the adapter guarantees it),
 * so the sweep may remove it.
 */
export type ClaimUnreferenced = (bodyPaths: readonly string[]) => Promise<readonly string[]>;

/**
 * Collects bodies no entry references (a crash between a put's body write and
 * its switch, a removal that failed): lists the bodies under the prefix, keeps
 * those younger than the grace period (a put in flight), asks the adapter
 * which of the others are unreferenced (claiming them) and removes those, a
 * bounded batch at a time. Several replicas may sweep at once: each removes
 * only what it claimed, and a claimed body is unreferenced for good.
 */
export class OrphanSweep {
  private readonly graceMs: number;
  private readonly batch: number;
  private readonly clock: () => number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<SweepReport>;
  private stopped = false;

  constructor(
    private readonly bodies: CacheBodies,
    private readonly claim: ClaimUnreferenced,
    private readonly log: LogSink,
    private readonly options: OrphanSweepOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.graceMs = Math.max(0, options.graceMs ?? DEFAULT_ORPHAN_GRACE_MS);
    this.batch = Math.max(1, options.batch ?? DEFAULT_BATCH);
  }

  /** Sweeps soon, then every interval, in the background; failures are logged and the next run tries again. */
  start(firstDelayMs = FIRST_SWEEP_DELAY_MS): void {
    const intervalMs = this.options.intervalMs ?? DEFAULT_ORPHAN_SWEEP_INTERVAL_MS;
    if (intervalMs <= 0 || this.stopped) return;
    const schedule = (delayMs: number): void => {
      this.timer = setTimeout(() => {
        void this.sweep()
          .catch((error: Error) => this.log.warn({ err: error.message }, 'cache orphan sweep failed; retried at the next interval'))
          .finally(() => {
            if (!this.stopped) schedule(intervalMs);
          });
      }, delayMs);
      this.timer.unref();
    };
    schedule(Math.min(firstDelayMs, intervalMs));
  }

  /** One sweep; concurrent calls share the sweep running. */
  sweep(): Promise<SweepReport> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops the timer and waits for a sweep running. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async run(): Promise<SweepReport> {
    let listed = 0;
    let removed = 0;
    let candidates: string[] = [];
    const judge = async (): Promise<void> => {
      const batch = candidates;
      candidates = [];
      const orphans = await this.claim(batch);
      await this.bodies.removeNow(orphans);
      removed += orphans.length;
    };
    // The bound is taken once: a body written while the listing runs is young by it.
    const writtenBefore = this.clock() - this.graceMs;
    for await (const body of this.bodies.list()) {
      if (this.stopped) break;
      listed++;
      if (body.modifiedAt >= writtenBefore) continue;
      candidates.push(body.bodyPath);
      if (candidates.length >= this.batch) await judge();
    }
    if (candidates.length > 0 && !this.stopped) await judge();
    if (removed > 0) this.log.info({ listed, removed, location: this.bodies.location }, 'cache orphan bodies removed');
    return { listed, removed };
  }
}
