import type { FastifyInstance } from 'fastify';

/**
 * An empty body sent as `application/json` reads as no body instead of a parse
 * error: scheduler pause and resume take none, and clients send the header
 * anyway. Endpoints that need a body still answer 400 ("must be a JSON object").
 */
export function acceptEmptyJsonBodies(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request) => {
    if (request.headers['content-length'] === '0') delete request.headers['content-type'];
  });
}
