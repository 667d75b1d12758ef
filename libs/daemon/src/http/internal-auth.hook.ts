import type { FastifyInstance } from 'fastify';
import { matchesSha256 } from '@bpc/domain';
import { daemonErrorBody } from './daemon-error-body';

export const INTERNAL_AUTH_HEADER = 'x-internal-auth';

/** Paths probes and scrapers reach without the key. */
const OPEN_PREFIXES = ['/health/', '/metrics', '/docs'];

/**
 * Checks `X-Internal-Auth` before the body is read, so an unauthenticated
 * call gets 401 whatever its body holds, and costs no parsing. Unknown paths
 * fall through to 404.
 */
export function installInternalAuth(fastify: FastifyInstance, keySha256: string): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url || OPEN_PREFIXES.some((p) => request.url.startsWith(p))) return;
    const presented = request.headers[INTERNAL_AUTH_HEADER];
    if (!matchesSha256(typeof presented === 'string' ? presented : undefined, keySha256)) {
      return reply.code(401).send(daemonErrorBody('missing or invalid X-Internal-Auth'));
    }
  });
}
