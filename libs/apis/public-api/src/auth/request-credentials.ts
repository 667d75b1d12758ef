import type { FastifyRequest } from 'fastify';
import { AppError } from '@bpc/domain';
import { RequestCredentials, SESSION_COOKIE } from '@bpc/identity';
import { isAgentConnectorRequest } from './agent-connector-mark';

/** What a request presents to authenticate: its Authorization header, else its dashboard session cookie (and CSRF header). */
export function credentialsOf(request: FastifyRequest): RequestCredentials {
  const { authorization, cookie } = request.headers;
  const csrf = request.headers['x-csrf-token'];
  return {
    method: request.method,
    authorization,
    // With an Authorization header the cookie is not read at all.
    sessionCookie: authorization ? undefined : sessionCookieOf(cookie),
    csrfToken: typeof csrf === 'string' ? csrf : undefined,
    agentConnector: isAgentConnectorRequest(request.headers),
  };
}

/**
 * The `bpc_session` value of a Cookie header. More than one is refused, not
 * picked from: a sibling subdomain (or a network attacker over plain HTTP)
 * can plant a second `bpc_session` with a narrower Path, which browsers send
 * first, to sign the victim into the attacker's session (cookie tossing).
 * Values are taken as sent: ours are never percent-encoded.
 */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let value: string | undefined;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== SESSION_COOKIE) continue;
    if (value !== undefined) throw new AppError('UNAUTHENTICATED', `several ${SESSION_COOKIE} cookies: sign in again`);
    value = pair.slice(equals + 1).trim();
  }
  return value;
}

/** `POST /api/session` signs in: it has no principal yet, so authentication does not apply; its token, when genuine, is counted by `installSignInLimits`. */
export function isSignIn(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.routeOptions.url === '/api/session';
}
