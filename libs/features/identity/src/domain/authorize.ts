import { AppError, matchesSha256 } from '@bpc/domain';
import type { Role } from '@bpc/events';
import { tokenIdOf } from './api-token';
import { IdentityState, roleAtLeast, TokenRecord } from './identity-state';

/** How a request was authenticated: a bearer token (`api`), a dashboard session cookie (`dashboard`), or an agent connector. */
export type AccessChannel = 'api' | 'dashboard' | 'agent';

export interface Principal {
  readonly userId: string;
  /** The bearer token, or the token the dashboard session was opened with; null for a session opened by a sign-in link. */
  readonly tokenId: string | null;
  /** What the request counts against in the rate limit: its token, or a link session's own key. */
  readonly rateLimitKey: string;
  readonly via?: AccessChannel;
  /** The dashboard session, when the request came with its cookie. */
  readonly sessionId?: string;
}

/** What the website's configuration says, looked up by the caller. */
export interface WebsiteFacts {
  readonly id: string;
  readonly accountId: string;
  readonly platformModule: boolean;
}

export interface WebsiteAccess extends Principal {
  readonly role: Role;
  readonly website: WebsiteFacts;
}

/**
 * Who a bearer token belongs to. Every refusal is UNAUTHENTICATED; the
 * message says which check failed (a holder of a revoked token learns nothing
 * they could not learn by being refused).
 */
export function authenticate(state: IdentityState, authorization: string | undefined, nowMs: number): Principal {
  if (!authorization) throw new AppError('UNAUTHENTICATED', 'missing Authorization: Bearer <token> header');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new AppError('UNAUTHENTICATED', 'Authorization header must be "Bearer <token>"');
  const record = authenticateToken(state, match[1], nowMs);
  return { userId: record.userId, tokenId: record.tokenId, rateLimitKey: record.tokenId, via: 'api' };
}

/** The token record of a presented API token that is known, unrevoked and unexpired (UNAUTHENTICATED otherwise, with `field` when given). */
export function authenticateToken(state: IdentityState, presented: string, nowMs: number, field?: string): TokenRecord {
  const tokenId = tokenIdOf(presented);
  const record = tokenId === undefined ? undefined : state.tokens.get(tokenId);
  // The digest comparison is constant-time; the id lookup only reveals whether an id exists, which is not secret.
  if (!record || !matchesSha256(presented, record.sha256)) throw new AppError('UNAUTHENTICATED', 'unknown API token', field);
  if (record.revokedAt !== null) throw new AppError('UNAUTHENTICATED', 'API token revoked', field);
  if (record.expiresAt !== null && record.expiresAt <= nowMs) throw new AppError('UNAUTHENTICATED', 'API token expired', field);
  return record;
}

/**
 * Whether the user may act on the website: a role at least `minimum`
 * (FORBIDDEN otherwise, also for websites that do not exist, so a token cannot
 * probe which websites exist), then the platform module (FEATURE_DISABLED).
 */
export function authorizeWebsite(
  state: IdentityState,
  principal: Principal,
  websiteId: string,
  website: WebsiteFacts | undefined,
  minimum: Role,
  needsPlatformModule: boolean,
): WebsiteAccess {
  const role = state.roles.get(principal.userId)?.get(websiteId);
  if (!role || !website) throw new AppError('FORBIDDEN', `no role on website ${websiteId}`);
  if (!roleAtLeast(role, minimum)) throw new AppError('FORBIDDEN', `the ${minimum} role or above is needed on website ${websiteId} (the token's user is ${role})`);
  if (needsPlatformModule && !website.platformModule) throw new AppError('FEATURE_DISABLED', `the platform module is not enabled on website ${websiteId}`);
  return { ...principal, role, website };
}
