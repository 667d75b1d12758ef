import type { FastifyInstance } from 'fastify';
import { INTERNAL_KEY_REFUSAL, installInternalKeyCheck } from '@bpc/platform';
import { daemonErrorBody } from './daemon-error-body';

/** Paths probes and scrapers reach without the key. */
const OPEN_PREFIXES = ['/health/', '/metrics', '/docs'];

/** Every daemon route but the open ones takes the operator key; unknown paths fall through to 404. */
export function installInternalAuth(fastify: FastifyInstance, keySha256: string): void {
  installInternalKeyCheck(fastify, keySha256, {
    appliesTo: (request) => request.routeOptions.url !== undefined && !OPEN_PREFIXES.some((p) => request.url.startsWith(p)),
    refuse: (reply) => reply.code(401).send(daemonErrorBody(INTERNAL_KEY_REFUSAL)),
  });
}
