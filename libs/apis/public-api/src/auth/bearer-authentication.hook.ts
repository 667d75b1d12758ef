import type { FastifyInstance } from 'fastify';
import { AppError, Clock } from '@bpc/domain';
import { authenticateRequest, authorizeWebsite, IdentityIndex } from '@bpc/identity';
import type { WebsiteFacts } from '@bpc/identity';
import { publicErrorResponse } from '../http/public-error-body';
import type { TokenRateLimiter } from '../rate-limit/token-rate-limiter';
import { credentialsOf, isSignIn } from './request-credentials';
import { installSignInLimits } from './sign-in-limits';

/**
 * Authenticates `/api/` requests (bearer token, or the dashboard session
 * cookie with its CSRF rule) before the body is read, so a caller without
 * a valid token gets 401 whatever its body holds (invalid JSON included) and
 * costs no parsing; sign-in (`POST /api/session`) is let through, under
 * its own limits (`installSignInLimits`).
 * Authorisation per website stays in BearerAuthGuard, which authenticates
 * again (cheap) so it never depends on this hook. With a limiter, each
 * authenticated request also counts against its token's rate limit.
 */
export function installBearerAuthentication(
  fastify: FastifyInstance,
  identity: IdentityIndex,
  clock: Clock,
  limiter?: TokenRateLimiter,
  websiteFacts: (websiteId: string) => WebsiteFacts | undefined = () => undefined,
): void {
  installSignInLimits(fastify, identity, clock, limiter);
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/api/') || isSignIn(request)) return;
    let principal;
    try {
      await identity.ready();
      principal = authenticateRequest(identity.view(), credentialsOf(request), clock.now());
      // No role at all on the website in the path: 403 before the body is read
      // (the exact role and module each endpoint needs are checked by BearerAuthGuard).
      const websiteId = (request.params as Record<string, string> | undefined)?.website;
      if (websiteId !== undefined) authorizeWebsite(identity.view(), principal, websiteId, websiteFacts(websiteId), 'readonly', false);
    } catch (error) {
      const { status, body } = publicErrorResponse(error instanceof AppError ? error : new AppError('UNAUTHENTICATED', 'authentication failed'));
      return reply.code(status).send(body);
    }
    // Counted per token (a session opened with a token counts as the token) once it is known to be genuine, before the body is read.
    if (limiter && (await limiter.refuse(principal.rateLimitKey, clock.now(), reply))) return reply;
  });
}
