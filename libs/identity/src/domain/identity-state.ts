import { Map as PersistentMap } from 'immutable';
import { assertNever } from '@bpc/domain';
import { API_TOKEN_ISSUED, API_TOKEN_REVOKED, IdentityEvent, Role, ROLES, USER_ROLE_GRANTED, USER_ROLE_REVOKED } from '@bpc/events';

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

/**
 * Users' roles per website and issued tokens, folded from the identity topic.
 * Persistent maps (`immutable`): each event makes a new state sharing all but
 * the changed path with the old one, so a replay of 50k tokens does not copy
 * the state per event or per batch.
 */
export interface IdentityState {
  readonly tokens: PersistentMap<string, TokenRecord>;
  /** userId → websiteId → role */
  readonly roles: PersistentMap<string, PersistentMap<string, Role>>;
}

export function emptyIdentityState(): IdentityState {
  return { tokens: PersistentMap(), roles: PersistentMap() };
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
    default:
      return assertNever(event);
  }
}

/**
 * The state after a batch of events, as folding `evolveIdentity` over them
 * gives it, and as pure (the given state is left as it was); within the
 * batch the maps are changed in place (immutable's `asMutable`), which keeps
 * a 50k-token replay as fast as folding into plain maps.
 */
export function evolveIdentityAll(state: IdentityState, events: Iterable<IdentityEvent>): IdentityState {
  let batch: IdentityState = { tokens: state.tokens.asMutable(), roles: state.roles.asMutable() };
  for (const event of events) batch = evolveIdentity(batch, event);
  return { tokens: batch.tokens.asImmutable(), roles: batch.roles.asImmutable() };
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}
