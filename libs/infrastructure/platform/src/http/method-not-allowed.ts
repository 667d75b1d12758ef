import { MethodNotAllowedException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import Router from 'find-my-way';

/** A known path asked with a method it does not serve; `allowed` goes out in the `Allow` header (RFC 9110, 15.5.6). */
export class MethodNotAllowed extends MethodNotAllowedException {
  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`method ${method} is not allowed on this endpoint; allowed: ${allowed.join(', ')}`);
  }
}

/**
 * Fastify answers a known path asked with another method as an unknown one
 * (404). A twin router holds every route's path and method; it is
 * find-my-way, Fastify's own router, so a path matches there exactly as it
 * would have matched in Fastify. A request no route took whose path another
 * method serves gets 405 with `Allow`, through the app's exception filter
 * (its envelope) like any other error; an unknown path stays 404. Install
 * before the app registers its routes.
 */
export function installMethodNotAllowed(fastify: FastifyInstance): void {
  const routes = Router();
  const methods = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      methods.add(method);
      routes.on(method as Router.HTTPMethod, route.url, () => undefined);
    }
  });
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== undefined) return;
    const allowed = [...methods].filter((method) => routes.find(method as Router.HTTPMethod, request.url) !== null);
    if (allowed.length === 0) return;
    void reply.header('allow', allowed.join(', '));
    throw new MethodNotAllowed(request.method, allowed);
  });
}
