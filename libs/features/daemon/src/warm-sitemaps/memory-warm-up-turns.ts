import { systemClock, type Clock } from '@bpc/domain';
import type { WarmUpTurns } from './warm-up-turns.port';

/** Turns of the one daemon of a standalone process, in memory (a restart within an interval may run it again). */
export class MemoryWarmUpTurns implements WarmUpTurns {
  private readonly taken = new Map<string, number>();

  constructor(private readonly clock: Clock = systemClock) {}

  async claim(turn: string, _owner: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    for (const [key, until] of this.taken) if (until <= now) this.taken.delete(key);
    if (this.taken.has(turn)) return false;
    this.taken.set(turn, now + ttlMs);
    return true;
  }

  async close(): Promise<void> {}
}
