import { Map as PersistentMap } from 'immutable';
import { assertNever } from '@bpc/domain';
import {
  API_TOKEN_ISSUED,
  API_TOKEN_REVOKED,
  DASHBOARD_SESSION_ENDED,
  DASHBOARD_SESSION_STARTED,
  DASHBOARD_SIGN_IN_LINK_ISSUED,
  DashboardSessionStarted,
  IdentityEvent,
  Role,
  ROLES,
  USER_ROLE_GRANTED,
  USER_ROLE_REVOKED,
} from '@bpc/events';

export interface TokenRecord {
  readonly tokenId: string;
  readonly userId: string;
  readonly sha256: string;
  readonly label: string;
  readonly issuedAt: string;
  /** Epoch ms; null = never. */
  readonly expiresAt: number | null;
  readonly revokedAt: string | null;
}

export interface SignInLinkRecord {
  readonly linkId: string;
  readonly userId: string;
  readonly sha256: string;
  /** Epoch ms. */
  readonly expiresAt: number;
  /** The one session the link opened (the first started with it, in log order); null while unused. */
  readonly sessionId: string | null;
}

export interface DashboardSessionRecord {
  readonly sessionId: string;
  readonly userId: string;
  /** The token it was opened with (the session ends with it), or null. */
  readonly tokenId: string | null;
  /** The sign-in link it was opened with, or null. */
  readonly linkId: string | null;
  readonly sha256: string;
  readonly startedAt: string;
  /** Epoch ms. */
  readonly expiresAt: number;
  readonly endedAt: string | null;
}

/**
 * Users' roles per website, issued tokens, dashboard sign-in links and
 * sessions, folded from the identity topic.
 * Persistent maps (`immutable`): each event makes a new state sharing all but
 * the changed path with the old one, so a replay of 50k tokens does not copy
 * the state per event or per batch.
 */
export interface IdentityState {
  readonly tokens: PersistentMap<string, TokenRecord>;
  /** userId → websiteId → role */
  readonly roles: PersistentMap<string, PersistentMap<string, Role>>;
  readonly links: PersistentMap<string, SignInLinkRecord>;
  readonly sessions: PersistentMap<string, DashboardSessionRecord>;
}

export function emptyIdentityState(): IdentityState {
  return { tokens: PersistentMap(), roles: PersistentMap(), links: PersistentMap(), sessions: PersistentMap() };
}

/**
 * The state after one identity event; the given state is left as it was.
 * Idempotent: applying an event again gives the same state, so at-least-once
 * delivery is harmless.
 */
export function evolveIdentity(state: IdentityState, event: IdentityEvent): IdentityState {
  switch (event.type) {
    case USER_ROLE_GRANTED: {
      const { userId, websiteId, role } = event.payload;
      return { ...state, roles: state.roles.update(userId, PersistentMap<string, Role>(), (roles) => roles.set(websiteId, role)) };
    }
    case USER_ROLE_REVOKED: {
      const { userId, websiteId } = event.payload;
      return state.roles.has(userId) ? { ...state, roles: state.roles.update(userId, (roles) => roles!.delete(websiteId)) } : state;
    }
    case API_TOKEN_ISSUED: {
      const { tokenId, userId, sha256, label, expiresAt } = event.payload;
      if (state.tokens.has(tokenId)) return state;
      const token = { tokenId, userId, sha256, label, issuedAt: event.occurredAt, expiresAt: expiresAt === null ? null : Date.parse(expiresAt), revokedAt: null };
      return { ...state, tokens: state.tokens.set(tokenId, token) };
    }
    case API_TOKEN_REVOKED: {
      const token = state.tokens.get(event.payload.tokenId);
      if (!token || token.revokedAt !== null) return state;
      return { ...state, tokens: state.tokens.set(token.tokenId, { ...token, revokedAt: event.occurredAt }) };
    }
    case DASHBOARD_SIGN_IN_LINK_ISSUED: {
      const { linkId, userId, sha256, expiresAt } = event.payload;
      if (state.links.has(linkId)) return state;
      return { ...state, links: state.links.set(linkId, { linkId, userId, sha256, expiresAt: Date.parse(expiresAt), sessionId: null }) };
    }
    case DASHBOARD_SESSION_STARTED:
      return startSession(state, event);
    case DASHBOARD_SESSION_ENDED: {
      const session = state.sessions.get(event.payload.sessionId);
      if (!session || session.endedAt !== null) return state;
      return { ...state, sessions: state.sessions.set(session.sessionId, { ...session, endedAt: event.occurredAt }) };
    }
    default:
      return assertNever(event);
  }
}

/**
 * A session opened with a link exists only when it is the first started
 * with that link, before the link expired (by the event's time) and for the
 * link's user: log order decides which of two concurrent uses wins, the same
 * way in every process.
 */
function startSession(state: IdentityState, event: DashboardSessionStarted): IdentityState {
  const { sessionId, userId, tokenId, linkId, sha256, expiresAt } = event.payload;
  if (state.sessions.has(sessionId)) return state;
  const session: DashboardSessionRecord = { sessionId, userId, tokenId, linkId, sha256, startedAt: event.occurredAt, expiresAt: Date.parse(expiresAt), endedAt: null };
  if (linkId === null) return { ...state, sessions: state.sessions.set(sessionId, session) };
  const link = state.links.get(linkId);
  if (!link || link.sessionId !== null || link.userId !== userId || Date.parse(event.occurredAt) >= link.expiresAt) return state;
  return { ...state, links: state.links.set(linkId, { ...link, sessionId }), sessions: state.sessions.set(sessionId, session) };
}

/**
 * The state after a batch of events, as folding `evolveIdentity` over them
 * gives it, and as pure (the given state is left as it was); within the
 * batch the maps are changed in place (immutable's `asMutable`), which keeps
 * a 50k-token replay as fast as folding into plain maps.
 */
export function evolveIdentityAll(state: IdentityState, events: Iterable<IdentityEvent>): IdentityState {
  let batch: IdentityState = { tokens: state.tokens.asMutable(), roles: state.roles.asMutable(), links: state.links.asMutable(), sessions: state.sessions.asMutable() };
  for (const event of events) batch = evolveIdentity(batch, event);
  return { tokens: batch.tokens.asImmutable(), roles: batch.roles.asImmutable(), links: batch.links.asImmutable(), sessions: batch.sessions.asImmutable() };
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}
