/**
 * Lets one log line through per interval and counts the ones held back:
 * during an outage every request (or render) fails the same way, and one
 * line with a count says as much as thousands.
 */
export class LogThrottle {
  private passedAt = Number.NEGATIVE_INFINITY;
  private held = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Undefined while lines are held back; else how many were held back since the last one that passed. */
  pass(): number | undefined {
    const now = this.now();
    if (now - this.passedAt < this.intervalMs) {
      this.held++;
      return undefined;
    }
    this.passedAt = now;
    const held = this.held;
    this.held = 0;
    return held;
  }
}
