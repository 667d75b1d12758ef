import { type LogSink } from '@bpc/support';
import { FailFastRedis } from '@bpc/redis-support';
import { RateLimitStore, RateLimitWindow, windowStart } from './rate-limit-store.port';

/** INCR and set the expiry on the first hit, in one step: a crash between them cannot leave a counter that never expires. */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

export interface RedisRateLimitStoreOptions {
  readonly url: string;
  /** Every key lives under the hash tag `{<keyPrefix>}:` (default `bpc`). */
  readonly keyPrefix?: string;
  readonly log?: LogSink;
}

/** Counters in Redis, shared by every public-api replica (cluster mode). */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: FailFastRedis;
  private readonly prefix: string;

  constructor(options: RedisRateLimitStoreOptions) {
    this.prefix = `{${options.keyPrefix ?? 'bpc'}}:rate-limit:`;
    this.redis = new FailFastRedis({ url: options.url, label: 'rate limit store', scripts: { bpcRateLimitHit: HIT }, log: options.log });
  }

  async hit(key: string, windowMs: number, nowMs: number): Promise<RateLimitWindow> {
    const start = windowStart(windowMs, nowMs);
    const end = start + windowMs;
    // Relative to the caller's clock (Redis's own may differ), plus a second of slack for a replica whose clock runs behind.
    const count = await this.redis.runScript('bpcRateLimitHit', `${this.prefix}${key}:${start}`, [end - nowMs + 1_000]);
    return { count: Number(count), resetAtMs: end };
  }

  async check(): Promise<void> {
    await this.redis.call((r) => r.ping());
  }

  close(): Promise<void> {
    return this.redis.close();
  }
}
