import { AppError } from '@bpc/domain';
import { authenticate, Principal } from './authorize';
import { authenticateSession } from './dashboard-session';
import type { IdentityState } from './identity-state';
import { matchesCsrfToken } from './dashboard-secrets';

/** Name of the dashboard session cookie. */
export const SESSION_COOKIE = 'bpc_session';
/** Header a cookie-authenticated request that changes something must carry. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** What a request presents, read from its headers by the HTTP layer. */
export interface RequestCredentials {
  readonly method: string;
  readonly authorization?: string;
  /** The `bpc_session` cookie's value. */
  readonly sessionCookie?: string;
  /** The `X-CSRF-Token` header. */
  readonly csrfToken?: string;
  /** The request comes from the agent connector (MCP server): a bearer-authenticated principal is then marked `via: 'agent'`. */
  readonly agentConnector?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Who a `/api/` request comes from: the bearer token when an Authorization
 * header is sent (the cookie is then ignored), else the dashboard session
 * cookie. A cookie-authenticated request that is not GET/HEAD must carry the
 * session's CSRF token (403 FORBIDDEN naming the header otherwise): the
 * browser sends the cookie on its own, a forged cross-site request cannot
 * know the token.
 */
export function authenticateRequest(state: IdentityState, credentials: RequestCredentials, nowMs: number): Principal {
  if (credentials.authorization || credentials.sessionCookie === undefined) {
    const principal = authenticate(state, credentials.authorization, nowMs);
    return credentials.agentConnector ? { ...principal, via: 'agent' } : principal;
  }
  const principal = authenticateSession(state, credentials.sessionCookie, nowMs);
  if (!SAFE_METHODS.has(credentials.method.toUpperCase()) && !matchesCsrfToken(credentials.sessionCookie, credentials.csrfToken)) {
    throw new AppError('FORBIDDEN', `missing or wrong ${CSRF_HEADER} header: a request signed in by the session cookie must carry the session's CSRF token (csrfToken of GET /api/session)`, CSRF_HEADER);
  }
  return principal;
}
