import type { LogSink } from '@bpc/support';

/** How often a failure that goes on is logged again, with its count. */
const REMIND_EVERY_MS = 60_000;

/**
 * Logs a failure that repeats on every request or tick (a store down, a log
 * refusing appends) once per streak instead of once per attempt: the first
 * failure with its error, a reminder with the running count at most once a
 * minute while it lasts, and one line when it works again. Per-attempt lines
 * would flood the log at the very moment an operator reads it.
 */
export class FailureStreakLog {
  private failures = 0;
  private remindedAt = 0;

  constructor(
    private readonly log: LogSink,
    private readonly level: 'warn' | 'error',
    /** What is failing, e.g. "rate limit store unavailable: requests let through". */
    private readonly failing: string,
    /** Said once it works again, e.g. "rate limit store reachable again". */
    private readonly recovered: string,
    private readonly now: () => number = Date.now,
  ) {}

  failed(error: unknown, fields: object = {}): void {
    this.failures += 1;
    const now = this.now();
    if (this.failures === 1) {
      this.remindedAt = now;
      this.log[this.level]({ ...fields, err: error }, this.failing);
    } else if (now - this.remindedAt >= REMIND_EVERY_MS) {
      this.remindedAt = now;
      this.log[this.level]({ ...fields, err: error, failures: this.failures }, `${this.failing} (still failing)`);
    }
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.log.info({ failures: this.failures }, this.recovered);
    this.failures = 0;
  }
}
