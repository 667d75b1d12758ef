import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '@bpc/config';
import { FailureStreakLog } from '@bpc/platform';
import type { RateLimitStore } from '@bpc/rate-limit';
import type { PublicErrorBody } from '../http/public-error-body';

/**
 * Per-token rate limit of the public API: every `/api/` request of a token
 * counts in a fixed window. Each answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds); over the limit the
 * answer is 429 `RATE_LIMITED` with `Retry-After`. When the store cannot be
 * reached the request goes through (logged): an outage of the counters must
 * not take the API down with it.
 */
export class TokenRateLimiter {
  private readonly storeFailures: FailureStreakLog;

  constructor(
    private readonly store: RateLimitStore,
    private readonly config: AppConfig['rate_limit'],
    logger: Logger,
  ) {
    this.storeFailures = new FailureStreakLog(logger, 'error', 'rate limit store unavailable; requests let through', 'rate limit store reachable again');
  }

  /** Counts the request; answers true when it was refused (the reply is sent). */
  async refuse(tokenId: string, nowMs: number, reply: FastifyReply): Promise<boolean> {
    if (!this.config.enabled) return false;
    const { requests_per_window: limit, window_seconds: windowSeconds } = this.config;
    let window;
    try {
      window = await this.store.hit(tokenId, windowSeconds * 1000, nowMs);
      this.storeFailures.succeeded();
    } catch (error) {
      this.storeFailures.failed(error);
      return false;
    }
    const resetSeconds = Math.max(1, Math.ceil((window.resetAtMs - nowMs) / 1000));
    void reply.header('RateLimit-Limit', limit).header('RateLimit-Remaining', Math.max(0, limit - window.count)).header('RateLimit-Reset', resetSeconds);
    if (window.count <= limit) return false;
    const body: PublicErrorBody = { code: 'RATE_LIMITED', message: `rate limit of ${limit} requests per ${windowSeconds} s exceeded for this token; retry in ${resetSeconds} s` };
    await reply.code(429).header('Retry-After', resetSeconds).send(body);
    return true;
  }
}
