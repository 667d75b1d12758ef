import { RateLimitStore, RateLimitWindow, windowStart } from './rate-limit-store.port';

/** Counters in this process's memory (standalone mode: one process serves every request). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; end: number; count: number }>();
  private lastSweep = 0;

  async hit(key: string, windowMs: number, nowMs: number): Promise<RateLimitWindow> {
    this.sweep(nowMs);
    const start = windowStart(windowMs, nowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, end: start + windowMs, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetAtMs: window.end };
  }

  async check(): Promise<void> {}

  async close(): Promise<void> {
    this.windows.clear();
  }

  /** Forgets finished windows, at most once a second, so idle tokens do not accumulate. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < 1_000) return;
    this.lastSweep = nowMs;
    for (const [key, window] of this.windows) if (window.end <= nowMs) this.windows.delete(key);
  }
}
