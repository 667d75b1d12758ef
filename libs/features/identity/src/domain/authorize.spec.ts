import { AppError } from '@bpc/domain';
import { API_TOKEN_ISSUED, API_TOKEN_REVOKED, envelope, IdentityEvent, USER_ROLE_GRANTED, USER_ROLE_REVOKED } from '@bpc/events';
import { newApiToken, tokenIdOf } from './api-token';
import { authenticate, authorizeWebsite } from './authorize';
import { emptyIdentityState, evolveIdentity, evolveIdentityAll, IdentityState } from './identity-state';

const now = Date.parse('2026-11-21T12:00:00Z');
let n = 0;
const meta = () => ({ id: `e${++n}`, occurredAt: new Date(now - 1000), key: 'identity' });
const demo = { id: 'demo', accountId: 'acme', platformModule: true };

function given(...events: IdentityEvent[]): IdentityState {
  return events.reduce(evolveIdentity, emptyIdentityState());
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'allowed';
}

describe('API tokens', () => {
  it('are bpc_-prefixed, carry their id and 32 random bytes, and only their hash is kept', () => {
    const t = newApiToken();
    expect(t.token).toMatch(/^bpc_tok_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(tokenIdOf(t.token)).toBe(t.tokenId);
    expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(newApiToken().token).not.toBe(t.token);
    expect(tokenIdOf('bpc_tok_123')).toBeUndefined();
  });
});

describe('authentication and authorisation', () => {
  const alice = newApiToken();
  const issued = (token = alice, expiresAt: string | null = null, userId = 'alice') =>
    envelope(API_TOKEN_ISSUED, 1, { tokenId: token.tokenId, userId, sha256: token.sha256, label: '', expiresAt }, meta());
  const grant = (role: 'readonly' | 'manager' | 'admin', websiteId = 'demo') => envelope(USER_ROLE_GRANTED, 1, { userId: 'alice', websiteId, role }, meta());

  it('accepts a valid bearer token and names its user', () => {
    expect(authenticate(given(issued()), `Bearer ${alice.token}`, now)).toEqual({ userId: 'alice', tokenId: alice.tokenId, rateLimitKey: alice.tokenId, via: 'api' });
  });

  it('refuses missing, malformed, unknown, tampered, revoked and expired tokens as UNAUTHENTICATED', () => {
    const state = given(issued());
    expect(refusal(() => authenticate(state, undefined, now))).toMatch(/^UNAUTHENTICATED/);
    expect(refusal(() => authenticate(state, `Basic ${alice.token}`, now))).toMatch(/^UNAUTHENTICATED/);
    expect(refusal(() => authenticate(state, `Bearer ${newApiToken().token}`, now))).toBe('UNAUTHENTICATED: unknown API token');
    const tampered = alice.token.slice(0, -1) + (alice.token.endsWith('A') ? 'B' : 'A');
    expect(refusal(() => authenticate(state, `Bearer ${tampered}`, now))).toBe('UNAUTHENTICATED: unknown API token');
    const revoked = given(issued(), envelope(API_TOKEN_REVOKED, 1, { tokenId: alice.tokenId }, meta()));
    expect(refusal(() => authenticate(revoked, `Bearer ${alice.token}`, now))).toBe('UNAUTHENTICATED: API token revoked');
    const expiring = given(issued(alice, new Date(now).toISOString()));
    expect(refusal(() => authenticate(expiring, `Bearer ${alice.token}`, now - 1))).toBe('allowed');
    expect(refusal(() => authenticate(expiring, `Bearer ${alice.token}`, now))).toBe('UNAUTHENTICATED: API token expired');
  });

  it('orders roles readonly < manager < admin per website', () => {
    const principal = { userId: 'alice', tokenId: alice.tokenId, rateLimitKey: alice.tokenId };
    const manager = given(issued(), grant('manager'));
    expect(authorizeWebsite(manager, principal, 'demo', demo, 'readonly', true).role).toBe('manager');
    expect(authorizeWebsite(manager, principal, 'demo', demo, 'manager', false).role).toBe('manager');
    expect(refusal(() => authorizeWebsite(manager, principal, 'demo', demo, 'admin', false))).toMatch(/^FORBIDDEN/);
    expect(refusal(() => authorizeWebsite(manager, principal, 'shop', { ...demo, id: 'shop' }, 'readonly', true))).toMatch(/^FORBIDDEN/);
    expect(refusal(() => authorizeWebsite(manager, principal, 'gone', undefined, 'readonly', true))).toMatch(/^FORBIDDEN/);
    const revoked = given(issued(), grant('admin'), envelope(USER_ROLE_REVOKED, 1, { userId: 'alice', websiteId: 'demo' }, meta()));
    expect(refusal(() => authorizeWebsite(revoked, principal, 'demo', demo, 'readonly', true))).toMatch(/^FORBIDDEN/);
  });

  it('refuses a website whose platform module is off with FEATURE_DISABLED, only where the module is needed', () => {
    const state = given(issued(), grant('readonly'));
    const principal = { userId: 'alice', tokenId: alice.tokenId, rateLimitKey: alice.tokenId };
    const off = { ...demo, platformModule: false };
    expect(refusal(() => authorizeWebsite(state, principal, 'demo', off, 'readonly', true))).toMatch(/^FEATURE_DISABLED/);
    expect(refusal(() => authorizeWebsite(state, principal, 'demo', off, 'readonly', false))).toBe('allowed');
  });

  it('evolves to a new state, leaving the given one as it was', () => {
    const before = given(issued(), grant('admin'));
    const after = evolveIdentity(before, envelope(API_TOKEN_REVOKED, 1, { tokenId: alice.tokenId }, meta()));
    const batched = evolveIdentityAll(before, [envelope(API_TOKEN_REVOKED, 1, { tokenId: alice.tokenId }, meta()), grant('readonly')]);
    expect(before.tokens.get(alice.tokenId)?.revokedAt).toBeNull();
    expect(before.roles.get('alice')?.get('demo')).toBe('admin');
    expect(after.tokens.get(alice.tokenId)?.revokedAt).not.toBeNull();
    expect(batched.tokens.get(alice.tokenId)?.revokedAt).not.toBeNull();
    expect(batched.roles.get('alice')?.get('demo')).toBe('readonly');
  });

  it('applies events idempotently (at-least-once delivery)', () => {
    const e = [issued(), grant('admin'), envelope(API_TOKEN_REVOKED, 1, { tokenId: alice.tokenId }, meta())];
    const once = given(...e);
    const twice = given(...e, ...e);
    expect([...twice.tokens.values()]).toEqual([...once.tokens.values()]);
    expect(twice.roles).toEqual(once.roles);
  });
});
