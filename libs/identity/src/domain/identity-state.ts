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

/** Users' roles per website and issued tokens, folded from the identity topic. */
export interface IdentityState {
  readonly tokens: Map<string, TokenRecord>;
  /** userId → websiteId → role */
  readonly roles: Map<string, Map<string, Role>>;
}

export function emptyIdentityState(): IdentityState {
  return { tokens: new Map(), roles: new Map() };
}

/**
 * Applies one identity event in place (the state is private to its index).
 * Idempotent: applying an event again leaves the same state, so at-least-once
 * delivery is harmless.
 */
export function evolveIdentity(state: IdentityState, event: IdentityEvent): IdentityState {
  switch (event.type) {
    case USER_ROLE_GRANTED: {
      const { userId, websiteId, role } = event.payload;
      const roles = state.roles.get(userId) ?? new Map<string, Role>();
      roles.set(websiteId, role);
      state.roles.set(userId, roles);
      return state;
    }
    case USER_ROLE_REVOKED:
      state.roles.get(event.payload.userId)?.delete(event.payload.websiteId);
      return state;
    case API_TOKEN_ISSUED: {
      const { tokenId, userId, sha256, label, expiresAt } = event.payload;
      if (!state.tokens.has(tokenId)) {
        state.tokens.set(tokenId, { tokenId, userId, sha256, label, issuedAt: event.occurredAt, expiresAt: expiresAt === null ? null : Date.parse(expiresAt), revokedAt: null });
      }
      return state;
    }
    case API_TOKEN_REVOKED: {
      const token = state.tokens.get(event.payload.tokenId);
      if (token && token.revokedAt === null) state.tokens.set(token.tokenId, { ...token, revokedAt: event.occurredAt });
      return state;
    }
    default:
      return assertNever(event);
  }
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}
