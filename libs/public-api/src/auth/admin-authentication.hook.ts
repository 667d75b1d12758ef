import type { FastifyInstance } from 'fastify';
import { AppError, matchesSha256 } from '@bpc/domain';
import { publicErrorResponse } from '../http/public-error-body';

/** The operator endpoints of the public-api app (`npm run cli`). */
const ADMIN_PREFIX = '/internal/admin/';

/**
 * Checks `X-Internal-Auth` on the admin endpoints before the body is read:
 * without the key a call gets 401 whatever its body holds (invalid JSON, 15 MB
 * of it), and costs no parsing. InternalAuthGuard checks again per route.
 */
export function installAdminAuthentication(fastify: FastifyInstance, keySha256: string): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith(ADMIN_PREFIX)) return;
    const presented = request.headers['x-internal-auth'];
    if (matchesSha256(typeof presented === 'string' ? presented : undefined, keySha256)) return;
    const { status, body } = publicErrorResponse(new AppError('UNAUTHENTICATED', 'missing or invalid X-Internal-Auth'));
    return reply.code(status).send(body);
  });
}
