import { List as PersistentList, Map as PersistentMap } from 'immutable';
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
  /** tokenId → the sessions opened with it, oldest first (at most MAX_LIVE_SESSIONS_PER_TOKEN, see `startSession`). */
  readonly tokenSessions: PersistentMap<string, PersistentList<string>>;
  /** Links and sessions in the order they were recorded, so expired ones are dropped from the front (see `dropExpired`). */
  readonly expiries: PersistentList<Expiry>;
}

interface Expiry {
  readonly kind: 'link' | 'session';
  readonly id: string;
  readonly expiresAt: number;
}

/**
 * Live dashboard sessions one API token may hold: a token signing in again
 * and again (each sign-in is an event every process keeps until it expires)
 * ends its oldest session instead of growing the identity state without end.
 * A constant, not configuration: every process must fold the log the same way.
 */
export const MAX_LIVE_SESSIONS_PER_TOKEN = 10;

export function emptyIdentityState(): IdentityState {
  return { tokens: PersistentMap(), roles: PersistentMap(), links: PersistentMap(), sessions: PersistentMap(), tokenSessions: PersistentMap(), expiries: PersistentList() };
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
      const link = { linkId, userId, sha256, expiresAt: Date.parse(expiresAt), sessionId: null };
      const issued = { ...state, links: state.links.set(linkId, link), expiries: state.expiries.push({ kind: 'link' as const, id: linkId, expiresAt: link.expiresAt }) };
      return dropExpired(issued, Date.parse(event.occurredAt));
    }
    case DASHBOARD_SESSION_STARTED:
      return dropExpired(startSession(state, event), Date.parse(event.occurredAt));
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
  const expiries = state.expiries.push({ kind: 'session', id: sessionId, expiresAt: session.expiresAt });
  if (tokenId !== null) return startTokenSession(state, session, tokenId, expiries);
  if (linkId === null) return { ...state, sessions: state.sessions.set(sessionId, session), expiries };
  const link = state.links.get(linkId);
  if (!link || link.sessionId !== null || link.userId !== userId || Date.parse(event.occurredAt) >= link.expiresAt) return state;
  return { ...state, links: state.links.set(linkId, { ...link, sessionId }), sessions: state.sessions.set(sessionId, session), expiries };
}

/**
 * Records a session opened with a token; past MAX_LIVE_SESSIONS_PER_TOKEN live
 * ones, the oldest are forgotten (refused from then on, as unknown). Sessions
 * already signed out, expired or forgotten leave the token's list here.
 */
function startTokenSession(state: IdentityState, session: DashboardSessionRecord, tokenId: string, expiries: IdentityState['expiries']): IdentityState {
  const nowMs = Date.parse(session.startedAt);
  let sessions = state.sessions.set(session.sessionId, session);
  const isLive = (id: string) => {
    const known = sessions.get(id);
    return known !== undefined && known.endedAt === null && known.expiresAt > nowMs;
  };
  let opened = (state.tokenSessions.get(tokenId) ?? PersistentList<string>()).filter(isLive).push(session.sessionId);
  while (opened.size > MAX_LIVE_SESSIONS_PER_TOKEN) {
    sessions = sessions.delete(opened.first()!);
    opened = opened.shift();
  }
  return { ...state, sessions, tokenSessions: state.tokenSessions.set(tokenId, opened), expiries };
}

/**
 * Forgets links and sessions that expired before `nowMs` (the time of the
 * event being applied), oldest first, stopping at the first one still valid:
 * an expired one is refused anyway, and keeping them would grow every
 * process's memory with each sign-in forever. Amortised O(1) per event, the
 * same in every process (it depends on the log alone). One recorded after a
 * longer-lived one (a shorter session TTL configured later) is dropped when
 * that one is: later, never too early.
 */
function dropExpired(state: IdentityState, nowMs: number): IdentityState {
  let { links, sessions, expiries } = state;
  let dropped = false;
  for (let first = expiries.first(); first !== undefined && first.expiresAt <= nowMs; first = expiries.first()) {
    if (first.kind === 'link') links = links.delete(first.id);
    else sessions = sessions.delete(first.id);
    expiries = expiries.shift();
    dropped = true;
  }
  return dropped ? { ...state, links, sessions, expiries } : state;
}

/**
 * The state after a batch of events, as folding `evolveIdentity` over them
 * gives it, and as pure (the given state is left as it was); within the
 * batch the maps are changed in place (immutable's `asMutable`), which keeps
 * a 50k-token replay as fast as folding into plain maps.
 */
export function evolveIdentityAll(state: IdentityState, events: Iterable<IdentityEvent>): IdentityState {
  let batch: IdentityState = {
    tokens: state.tokens.asMutable(),
    roles: state.roles.asMutable(),
    links: state.links.asMutable(),
    sessions: state.sessions.asMutable(),
    tokenSessions: state.tokenSessions.asMutable(),
    expiries: state.expiries.asMutable(),
  };
  for (const event of events) batch = evolveIdentity(batch, event);
  return {
    tokens: batch.tokens.asImmutable(),
    roles: batch.roles.asImmutable(),
    links: batch.links.asImmutable(),
    sessions: batch.sessions.asImmutable(),
    tokenSessions: batch.tokenSessions.asImmutable(),
    expiries: batch.expiries.asImmutable(),
  };
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}
