import { AppError } from '@bpc/domain';
import {
  API_TOKEN_ISSUED,
  API_TOKEN_REVOKED,
  DASHBOARD_SESSION_ENDED,
  DASHBOARD_SESSION_STARTED,
  DASHBOARD_SIGN_IN_LINK_ISSUED,
  envelope,
  IdentityEvent,
} from '@bpc/events';
import { newApiToken } from './api-token';
import { authenticateRequest, RequestCredentials } from './authenticate-request';
import { csrfTokenOf, linkIdOf, matchesCsrfToken, NewSecret, newSessionSecret, newSignInLinkSecret, sessionIdOf } from './dashboard-secrets';
import { usableSignInLink } from './dashboard-session';
import { emptyIdentityState, evolveIdentity, evolveIdentityAll, IdentityState, MAX_LIVE_SESSIONS_PER_TOKEN } from './identity-state';

const now = Date.parse('2026-11-27T12:00:00Z');
const hour = 3_600_000;
let n = 0;
const at = (ms: number) => ({ id: `e${++n}`, occurredAt: new Date(ms), key: 'identity' });
const iso = (ms: number) => new Date(ms).toISOString();

function given(...events: IdentityEvent[]): IdentityState {
  return events.reduce(evolveIdentity, emptyIdentityState());
}

function outcome(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return `${error.code}${error.field ? `(${error.field})` : ''}: ${error.message}`;
    throw error;
  }
  return 'allowed';
}

const token = newApiToken();
const tokenIssued = (expiresAt: string | null = null) =>
  envelope(API_TOKEN_ISSUED, 1, { tokenId: token.tokenId, userId: 'alice', sha256: token.sha256, label: '', expiresAt }, at(now - hour));
const linkIssued = (link: NewSecret, expiresAt = now + 15 * 60_000, userId = 'bob') =>
  envelope(DASHBOARD_SIGN_IN_LINK_ISSUED, 1, { linkId: link.id, userId, sha256: link.sha256, expiresAt: iso(expiresAt) }, at(now - 60_000));
const started = (session: NewSecret, opener: { tokenId?: string; linkId?: string; userId?: string }, occurredAt = now - 1000, expiresAt = now + 12 * hour) =>
  envelope(
    DASHBOARD_SESSION_STARTED,
    1,
    { sessionId: session.id, userId: opener.userId ?? (opener.linkId ? 'bob' : 'alice'), tokenId: opener.tokenId ?? null, linkId: opener.linkId ?? null, sha256: session.sha256, expiresAt: iso(expiresAt) },
    at(occurredAt),
  );
const cookie = (session: NewSecret, method = 'GET', extra: Partial<RequestCredentials> = {}): RequestCredentials => ({ method, sessionCookie: session.secret, ...extra });

describe('dashboard secrets', () => {
  it('are bpc_ses_/bpc_lnk_-prefixed, carry their id and 32 random bytes, and only their hash is kept', () => {
    const session = newSessionSecret();
    const link = newSignInLinkSecret();
    expect(session.secret).toMatch(/^bpc_ses_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(link.secret).toMatch(/^bpc_lnk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(sessionIdOf(session.secret)).toBe(session.id);
    expect(linkIdOf(link.secret)).toBe(link.id);
    expect(sessionIdOf(link.secret)).toBeUndefined();
    expect(linkIdOf(token.token)).toBeUndefined();
  });

  it('derive a CSRF token from the session secret: 64 hex, stable, different per session, compared as a whole', () => {
    const a = newSessionSecret();
    const b = newSessionSecret();
    expect(csrfTokenOf(a.secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(csrfTokenOf(a.secret)).toBe(csrfTokenOf(a.secret));
    expect(csrfTokenOf(a.secret)).not.toBe(csrfTokenOf(b.secret));
    expect(matchesCsrfToken(a.secret, csrfTokenOf(a.secret))).toBe(true);
    expect(matchesCsrfToken(a.secret, csrfTokenOf(b.secret))).toBe(false);
    expect(matchesCsrfToken(a.secret, csrfTokenOf(a.secret).slice(0, 63))).toBe(false);
    expect(matchesCsrfToken(a.secret, undefined)).toBe(false);
  });
});

describe('dashboard sessions in the identity state', () => {
  it('given a link, when two sessions start with it, then the link opens the first in log order only', () => {
    const link = newSignInLinkSecret();
    const first = newSessionSecret();
    const second = newSessionSecret();
    const state = given(linkIssued(link), started(first, { linkId: link.id }), started(second, { linkId: link.id }));
    expect(state.links.get(link.id)?.sessionId).toBe(first.id);
    expect(state.sessions.has(first.id)).toBe(true);
    expect(state.sessions.has(second.id)).toBe(false);
    expect(outcome(() => usableSignInLink(state, link.secret, now))).toBe('UNAUTHENTICATED(link): sign-in link already used: ask for a new one');
  });

  it('given a link, when a session starts with it after its expiry, for another user, or with an unknown link, then no session exists', () => {
    const link = newSignInLinkSecret();
    const late = newSessionSecret();
    const stranger = newSessionSecret();
    const unknown = newSessionSecret();
    const state = given(
      linkIssued(link, now),
      started(stranger, { linkId: link.id, userId: 'mallory' }, now - 1),
      started(unknown, { linkId: 'lnk_0000000000000000' }, now - 1),
    );
    expect([stranger, unknown].map((s) => state.sessions.has(s.id))).toEqual([false, false]);
    expect(state.links.get(link.id)?.sessionId).toBeNull();
    expect(outcome(() => usableSignInLink(state, link.secret, now))).toBe('UNAUTHENTICATED(link): sign-in link expired: ask for a new one');
    expect(outcome(() => usableSignInLink(state, newSignInLinkSecret().secret, now))).toBe('UNAUTHENTICATED(link): unknown or expired sign-in link: ask for a new one');
    // Started at its expiry: no session, and the expired link is forgotten.
    const tooLate = evolveIdentity(state, started(late, { linkId: link.id }, now));
    expect(tooLate.sessions.has(late.id)).toBe(false);
    expect(tooLate.links.has(link.id)).toBe(false);
  });

  it('folds the same way event by event and in a batch, leaves the given state as it was, and is idempotent', () => {
    const link = newSignInLinkSecret();
    const session = newSessionSecret();
    const events = [tokenIssued(), linkIssued(link), started(session, { linkId: link.id }), envelope(DASHBOARD_SESSION_ENDED, 1, { sessionId: session.id }, at(now))];
    const before = given(events[0], events[1]);
    const after = evolveIdentityAll(before, events.slice(2));
    expect(before.sessions.size).toBe(0);
    expect(before.links.get(link.id)?.sessionId).toBeNull();
    expect(after.sessions.get(session.id)?.endedAt).toBe(iso(now));
    expect(after.sessions.toJS()).toEqual(given(...events).sessions.toJS());
    expect(given(...events, ...events).sessions.toJS()).toEqual(given(...events).sessions.toJS());
    expect(given(...events, ...events).links.toJS()).toEqual(given(...events).links.toJS());
  });
});

describe('live sessions per token', () => {
  it('given a token at its limit of live sessions, when it signs in again, then its oldest session is forgotten, event by event as in a batch', () => {
    const sessions = Array.from({ length: MAX_LIVE_SESSIONS_PER_TOKEN + 2 }, () => newSessionSecret());
    const events = sessions.map((s, i) => started(s, { tokenId: token.tokenId }, now + i));
    for (const state of [given(tokenIssued(), ...events), evolveIdentityAll(given(tokenIssued()), events)]) {
      expect(sessions.map((s) => state.sessions.has(s.id))).toEqual([false, false, ...sessions.slice(2).map(() => true)]);
      expect(state.tokenSessions.get(token.tokenId)?.toArray()).toEqual(sessions.slice(2).map((s) => s.id));
      expect(outcome(() => authenticateRequest(state, cookie(sessions[0]), now + 100))).toBe('UNAUTHENTICATED: unknown dashboard session: sign in again');
      expect(outcome(() => authenticateRequest(state, cookie(sessions[2]), now + 100))).toBe('allowed');
    }
  });

  it('counts only live sessions: signed-out and expired ones leave room, and other tokens and links are not counted', () => {
    const other = newApiToken();
    const link = newSignInLinkSecret();
    const ended = newSessionSecret();
    const short = newSessionSecret();
    const theirs = newSessionSecret();
    const linked = newSessionSecret();
    const rest = Array.from({ length: MAX_LIVE_SESSIONS_PER_TOKEN - 1 }, () => newSessionSecret());
    const state = given(
      tokenIssued(),
      linkIssued(link),
      started(ended, { tokenId: token.tokenId }, now),
      envelope(DASHBOARD_SESSION_ENDED, 1, { sessionId: ended.id }, at(now)),
      started(short, { tokenId: token.tokenId }, now, now + 10),
      started(theirs, { tokenId: other.tokenId, userId: 'alice' }, now),
      started(linked, { linkId: link.id }, now),
      ...rest.map((s) => started(s, { tokenId: token.tokenId }, now + 10)),
    );
    expect([theirs, linked, ...rest].every((s) => state.sessions.has(s.id))).toBe(true);
    expect(state.tokenSessions.get(token.tokenId)?.size).toBe(MAX_LIVE_SESSIONS_PER_TOKEN - 1);
  });
});

describe('authenticating a request by its session cookie', () => {
  const session = newSessionSecret();
  const signedIn = given(tokenIssued(), started(session, { tokenId: token.tokenId }));

  it('signs a GET in as the session user, via the dashboard, counted against the token', () => {
    expect(authenticateRequest(signedIn, cookie(session), now)).toEqual({ userId: 'alice', tokenId: token.tokenId, rateLimitKey: token.tokenId, via: 'dashboard', sessionId: session.id });
  });

  it('prefers an Authorization header to the cookie (no CSRF token needed then)', () => {
    expect(authenticateRequest(signedIn, cookie(session, 'POST', { authorization: `Bearer ${token.token}` }), now)).toMatchObject({ via: 'api', rateLimitKey: token.tokenId });
    expect(outcome(() => authenticateRequest(signedIn, cookie(session, 'GET', { authorization: 'Bearer nope' }), now))).toBe('UNAUTHENTICATED: unknown API token');
  });

  it('refuses a change signed in by cookie without the CSRF token (403 naming the header), accepts it with the token', () => {
    expect(outcome(() => authenticateRequest(signedIn, cookie(session, 'POST'), now))).toMatch(/^FORBIDDEN\(X-CSRF-Token\): .*CSRF/);
    expect(outcome(() => authenticateRequest(signedIn, cookie(session, 'DELETE', { csrfToken: csrfTokenOf(newSessionSecret().secret) }), now))).toMatch(/^FORBIDDEN\(X-CSRF-Token\)/);
    expect(outcome(() => authenticateRequest(signedIn, cookie(session, 'POST', { csrfToken: csrfTokenOf(session.secret) }), now))).toBe('allowed');
    expect(outcome(() => authenticateRequest(signedIn, cookie(session, 'HEAD'), now))).toBe('allowed');
  });

  it('refuses an unknown, tampered, signed-out or expired session, and one whose token was revoked or expired', () => {
    const tampered = { ...session, secret: session.secret.slice(0, -1) + (session.secret.endsWith('A') ? 'B' : 'A') };
    expect(outcome(() => authenticateRequest(signedIn, cookie(newSessionSecret()), now))).toBe('UNAUTHENTICATED: unknown dashboard session: sign in again');
    expect(outcome(() => authenticateRequest(signedIn, cookie(tampered), now))).toBe('UNAUTHENTICATED: unknown dashboard session: sign in again');
    expect(outcome(() => authenticateRequest(signedIn, cookie(session), now + 12 * hour))).toBe('UNAUTHENTICATED: dashboard session expired: sign in again');
    const ended = evolveIdentity(signedIn, envelope(DASHBOARD_SESSION_ENDED, 1, { sessionId: session.id }, at(now)));
    expect(outcome(() => authenticateRequest(ended, cookie(session), now))).toBe('UNAUTHENTICATED: dashboard session signed out: sign in again');
    const revoked = evolveIdentity(signedIn, envelope(API_TOKEN_REVOKED, 1, { tokenId: token.tokenId }, at(now)));
    expect(outcome(() => authenticateRequest(revoked, cookie(session), now))).toMatch(/^UNAUTHENTICATED: .*revoked/);
    const expiring = given(tokenIssued(iso(now + hour)), started(session, { tokenId: token.tokenId }));
    expect(outcome(() => authenticateRequest(expiring, cookie(session), now + hour))).toMatch(/^UNAUTHENTICATED: .*expired/);
  });

  it('counts a session opened by a link against a key of its own', () => {
    const link = newSignInLinkSecret();
    const linked = newSessionSecret();
    const state = given(linkIssued(link), started(linked, { linkId: link.id }));
    expect(authenticateRequest(state, cookie(linked), now)).toEqual({ userId: 'bob', tokenId: null, rateLimitKey: linked.id, via: 'dashboard', sessionId: linked.id });
  });

  it('without Authorization or cookie, asks for the Authorization header', () => {
    expect(outcome(() => authenticateRequest(signedIn, { method: 'GET' }, now))).toBe('UNAUTHENTICATED: missing Authorization: Bearer <token> header');
  });
});

describe('expired links and sessions', () => {
  it('are forgotten once a later dashboard event is past their expiry, oldest first, the live ones kept, event by event as in a batch', () => {
    const link = newSignInLinkSecret();
    const old = newSessionSecret();
    const live = newSessionSecret();
    const later = newSessionSecret();
    const events = [
      linkIssued(link, now + 15 * 60_000),
      started(old, { tokenId: token.tokenId }, now, now + hour),
      started(live, { tokenId: token.tokenId }, now, now + 12 * hour),
      started(later, { tokenId: token.tokenId }, now + 2 * hour, now + 14 * hour),
    ];
    for (const state of [given(tokenIssued(), ...events), evolveIdentityAll(given(tokenIssued()), events)]) {
      expect(state.links.has(link.id)).toBe(false);
      expect([old, live, later].map((s) => state.sessions.has(s.id))).toEqual([false, true, true]);
      expect(state.expiries.size).toBe(2);
      expect(outcome(() => authenticateRequest(state, cookie(live), now + 2 * hour))).toBe('allowed');
    }
  });
});
