import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { RedisRateLimitStore } from '@bpc/rate-limit';
import { TokenRateLimiter } from './token-rate-limiter';

describe('TokenRateLimiter with its store unreachable', () => {
  it('lets every request through and logs the outage once, not once per request', async () => {
    const store = new RedisRateLimitStore({ url: 'redis://127.0.0.1:1', keyPrefix: 'x' });
    const lines: { level: string; message: string }[] = [];
    const logger = Object.fromEntries(['info', 'warn', 'error'].map((level) => [level, (_fields: object, message: string) => void lines.push({ level, message })])) as unknown as Logger;
    const limiter = new TokenRateLimiter(store, { enabled: true, requests_per_window: 1, window_seconds: 60 }, logger);
    try {
      for (let i = 0; i < 20; i += 1) expect(await limiter.refuse('tok', Date.now(), {} as FastifyReply)).toBe(false);
      expect(lines).toEqual([{ level: 'error', message: 'rate limit store unavailable; requests let through' }]);
    } finally {
      await store.close();
    }
  });
});
