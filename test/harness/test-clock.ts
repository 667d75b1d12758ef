import type { Clock } from '@bpc/domain';

/** A clock tests move by hand (pause expiry, due times) instead of waiting. */
export class TestClock implements Clock {
  constructor(private current = Date.now()) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * The system clock, moved ahead by hand: for apps that need time to pass as
 * usual (projections, timeouts) while a test skips a window a rule waits out.
 */
export class AheadClock implements Clock {
  private aheadMs = 0;

  now(): number {
    return Date.now() + this.aheadMs;
  }

  advance(ms: number): void {
    this.aheadMs += ms;
  }
}
