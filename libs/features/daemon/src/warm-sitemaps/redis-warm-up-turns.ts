import { FailFastRedis } from '@bpc/redis-support';
import type { LogSink } from '@bpc/support';
import type { WarmUpTurns } from './warm-up-turns.port';

export interface RedisWarmUpTurnsOptions {
  readonly url: string;
  /** Keys live under the hash tag `{<keyPrefix>}:` (default `bpc`). */
  readonly keyPrefix?: string;
  readonly log?: LogSink;
}

/** Turns shared by every daemon of a cluster: one key per turn, set only if absent, expiring with the interval. */
export class RedisWarmUpTurns implements WarmUpTurns {
  private readonly redis: FailFastRedis;
  private readonly base: string;

  constructor(options: RedisWarmUpTurnsOptions) {
    this.base = `{${options.keyPrefix ?? 'bpc'}}:sitemap-warm-up:`;
    this.redis = new FailFastRedis({ url: options.url, label: 'sitemap warm-up turns', scripts: {}, log: options.log });
  }

  async claim(turn: string, owner: string, ttlMs: number): Promise<boolean> {
    const set = await this.redis.call((client) => client.set(`${this.base}${turn}`, owner, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'));
    return set === 'OK';
  }

  async close(): Promise<void> {
    await this.redis.close();
  }
}
