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
