import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchesSha256 } from '@bpc/domain';

/** What an operator call without the key is told, by every API. */
export const INTERNAL_KEY_REFUSAL = 'missing or invalid X-Internal-Auth';

/**
 * Whether a request presents the operator key in `X-Internal-Auth`: compared
 * in constant time with the configured SHA-256. The one check every operator
 * endpoint (daemon API, public-api admin) makes.
 */
export function presentsInternalKey(headers: IncomingHttpHeaders, keySha256: string): boolean {
  const presented = headers['x-internal-auth'];
  return matchesSha256(typeof presented === 'string' ? presented : undefined, keySha256);
}

/**
 * Checks the operator key before the body is read, on the routes
 * `appliesTo` names: an unauthenticated call gets the API's 401 (`refuse`)
 * whatever its body holds (invalid JSON, 15 MB of it), and costs no parsing.
 */
export function installInternalKeyCheck(
  fastify: FastifyInstance,
  keySha256: string,
  options: { readonly appliesTo: (request: FastifyRequest) => boolean; readonly refuse: (reply: FastifyReply) => FastifyReply },
): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (options.appliesTo(request) && !presentsInternalKey(request.headers, keySha256)) return options.refuse(reply);
  });
}
