import type { FastifyReply } from 'fastify';
import type { Clock } from '@bpc/domain';

/** When the request arrived: an explorer budget counts from there, so the time spent before the handler (authentication, rate limit, body) is part of it. */
export function receivedAtMs(clock: Clock, reply: FastifyReply): number {
  return clock.now() - reply.elapsedTime;
}
