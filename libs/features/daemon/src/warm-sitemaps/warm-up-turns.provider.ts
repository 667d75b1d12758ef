import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import type { Logger } from 'pino';
import { MemoryWarmUpTurns } from './memory-warm-up-turns';
import { RedisWarmUpTurns } from './redis-warm-up-turns';
import type { WarmUpTurns } from './warm-up-turns.port';

/** Turns follow the queue store: in memory standalone, in the shared Redis in cluster mode. */
export function openWarmUpTurns(config: AppConfig, clock: Clock, log: Logger): WarmUpTurns {
  // No sitemap to warm: no turn is ever claimed, and no connection is worth opening.
  if (config.websites.every((website) => website.sitemaps.length === 0)) return new MemoryWarmUpTurns(clock);
  switch (config.adapters.queue_store) {
    case 'memory':
      return new MemoryWarmUpTurns(clock);
    case 'redis':
      return new RedisWarmUpTurns({ url: config.redis!.url, keyPrefix: config.redis!.key_prefix, log });
  }
}
