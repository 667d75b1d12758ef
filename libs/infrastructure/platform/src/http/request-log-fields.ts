import type { FastifyRequest } from 'fastify';

/** The route label of a request no route matched: one value, whatever paths scanners try. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route's template (`/api/websites/:website/cache/recache`), never the path requested: no ids, tokens or link signatures. */
export function routeTemplateOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

/** What every log line about a request names it by. */
export function requestLogFields(request: FastifyRequest): { reqId: string; method: string; route: string } {
  return { reqId: request.id, method: request.method, route: routeTemplateOf(request) };
}
