import { AppError, matchesSha256 } from '@bpc/domain';
import type { Principal } from './authorize';
import { linkIdOf, sessionIdOf } from './dashboard-secrets';
import type { DashboardSessionRecord, IdentityState, SignInLinkRecord } from './identity-state';

/**
 * The live session a presented cookie value opens: known (its hash matches),
 * not signed out, not expired, and, when opened with a token, that token
 * neither revoked nor expired. Every refusal is UNAUTHENTICATED.
 */
export function liveSession(state: IdentityState, presented: string, nowMs: number): DashboardSessionRecord {
  const sessionId = sessionIdOf(presented);
  const session = sessionId === undefined ? undefined : state.sessions.get(sessionId);
  if (!session || !matchesSha256(presented, session.sha256)) throw new AppError('UNAUTHENTICATED', 'unknown dashboard session: sign in again');
  if (session.endedAt !== null) throw new AppError('UNAUTHENTICATED', 'dashboard session signed out: sign in again');
  if (session.expiresAt <= nowMs) throw new AppError('UNAUTHENTICATED', 'dashboard session expired: sign in again');
  if (session.tokenId !== null) {
    const token = state.tokens.get(session.tokenId);
    if (!token || token.revokedAt !== null) throw new AppError('UNAUTHENTICATED', 'dashboard session ended: the API token it was opened with was revoked');
    if (token.expiresAt !== null && token.expiresAt <= nowMs) throw new AppError('UNAUTHENTICATED', 'dashboard session ended: the API token it was opened with expired');
  }
  return session;
}

/** The principal of a dashboard session cookie; a link session counts against a rate limit key of its own. */
export function authenticateSession(state: IdentityState, presented: string, nowMs: number): Principal {
  const session = liveSession(state, presented, nowMs);
  return { userId: session.userId, tokenId: session.tokenId, rateLimitKey: session.tokenId ?? session.sessionId, via: 'dashboard', sessionId: session.sessionId };
}

/** The sign-in link a presented secret names, while it is unused and unexpired (UNAUTHENTICATED naming `link` otherwise). */
export function usableSignInLink(state: IdentityState, presented: string, nowMs: number): SignInLinkRecord {
  const linkId = linkIdOf(presented);
  const link = linkId === undefined ? undefined : state.links.get(linkId);
  if (!link || !matchesSha256(presented, link.sha256)) throw new AppError('UNAUTHENTICATED', 'unknown or expired sign-in link: ask for a new one', 'link');
  if (link.sessionId !== null) throw new AppError('UNAUTHENTICATED', 'sign-in link already used: ask for a new one', 'link');
  if (link.expiresAt <= nowMs) throw new AppError('UNAUTHENTICATED', 'sign-in link expired: ask for a new one', 'link');
  return link;
}
