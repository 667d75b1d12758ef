import { Injectable } from '@nestjs/common';

/**
 * In-process hint that work was queued through this daemon, so its scheduler
 * pulls at once instead of at the next tick. Only a latency shortcut: the
 * tick still finds everything (work queued through another replica included).
 */
@Injectable()
export class QueueActivity {
  private readonly listeners = new Set<() => void>();

  onWorkQueued(listener: () => void): void {
    this.listeners.add(listener);
  }

  workQueued(): void {
    for (const listener of this.listeners) listener();
  }
}
