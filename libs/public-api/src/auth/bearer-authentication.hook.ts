import type { FastifyInstance } from 'fastify';
import { AppError, Clock } from '@bpc/domain';
import { authenticate, IdentityIndex } from '@bpc/identity';
import { publicErrorResponse } from '../http/public-error-body';

/**
 * Authenticates `/api/` requests before the body is read, so a caller without
 * a valid token gets 401 whatever its body holds (invalid JSON included) and
 * costs no parsing. Authorisation per website stays in BearerAuthGuard, which
 * authenticates again (cheap) so it never depends on this hook.
 */
export function installBearerAuthentication(fastify: FastifyInstance, identity: IdentityIndex, clock: Clock): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    try {
      await identity.ready();
      authenticate(identity.view(), request.headers.authorization, clock.now());
    } catch (error) {
      const { status, body } = publicErrorResponse(error instanceof AppError ? error : new AppError('UNAUTHENTICATED', 'authentication failed'));
      return reply.code(status).send(body);
    }
  });
}
