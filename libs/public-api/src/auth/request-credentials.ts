import { parseCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import { RequestCredentials, SESSION_COOKIE } from '@bpc/identity';
import { isAgentConnectorRequest } from './agent-connector-mark';

/** What a request presents to authenticate: its Authorization header, else its dashboard session cookie (and CSRF header). */
export function credentialsOf(request: FastifyRequest): RequestCredentials {
  const { authorization, cookie } = request.headers;
  const csrf = request.headers['x-csrf-token'];
  return {
    method: request.method,
    authorization,
    sessionCookie: cookie ? parseCookie(cookie)[SESSION_COOKIE] : undefined,
    csrfToken: typeof csrf === 'string' ? csrf : undefined,
    agentConnector: isAgentConnectorRequest(request.headers),
  };
}

/** `POST /api/session` signs in: it has no principal yet, so neither authentication nor the per-token rate limit applies to it. */
export function isSignIn(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.routeOptions.url === '/api/session';
}
