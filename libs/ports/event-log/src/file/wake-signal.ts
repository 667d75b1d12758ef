/**
 * Wakes a consumer loop when new records are durable. The loop reads the
 * generation before looking for work and waits with it, so a notification
 * that lands between "found nothing" and "wait" is never missed.
 */
export class WakeSignal {
  private generationCount = 0;
  private waiters = new Set<() => void>();

  get generation(): number {
    return this.generationCount;
  }

  notify(): void {
    this.generationCount += 1;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next notification after `since`, or after `timeoutMs` (Infinity: no timeout). */
  wait(since: number, timeoutMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.generationCount !== since) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const wake = () => {
        if (timer) clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      if (Number.isFinite(timeoutMs)) timer = setTimeout(wake, Math.max(0, timeoutMs));
      this.waiters.add(wake);
    });
  }
}
