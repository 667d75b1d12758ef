import { randomUUID } from 'node:crypto';
import {
  API_TOKEN_ISSUED,
  API_TOKEN_REVOKED,
  ApiTokenIssued,
  ApiTokenRevoked,
  DASHBOARD_SESSION_STARTED,
  DASHBOARD_SIGN_IN_LINK_ISSUED,
  DashboardSessionStarted,
  DashboardSignInLinkIssued,
  envelope,
  IDENTITY_KEY,
  type IdentityEvent,
  type Role,
  TOPICS,
  USER_ROLE_GRANTED,
  USER_ROLE_REVOKED,
  UserRoleGranted,
  UserRoleRevoked,
} from '@bpc/events';
import { IdentityIndex } from '@bpc/identity';
import { createLogger, ReadinessRegistry } from '@bpc/platform';
import type { StandaloneState } from './standalone-state';

/** A public-api process's identity index following a standalone state's log, caught up. */
export interface FollowedIdentity {
  readonly index: IdentityIndex;
  /** Records identity events as earlier commands would have, and waits until the index has applied them. */
  given(...events: IdentityEvent[]): Promise<void>;
  /** Stops following (before the state closes its log). */
  stop(): Promise<void>;
}

export async function followIdentity(state: StandaloneState): Promise<FollowedIdentity> {
  const index = new IdentityIndex(state.log, createLogger('silent', 'identity'), state.config, new ReadinessRegistry());
  index.onApplicationBootstrap();
  await index.ready();
  return {
    index,
    async given(...events) {
      await state.log.append(TOPICS.identity, events);
      await index.waitFor(events[events.length - 1].id);
    },
    stop: () => index.onApplicationShutdown(),
  };
}

/** Identity events as the identity commands record them, for a spec's "given". */
export const identityFacts = {
  meta: (at: number) => ({ id: randomUUID(), occurredAt: new Date(at), key: IDENTITY_KEY }),
  roleGranted(userId: string, websiteId: string, role: Role, at: number): UserRoleGranted {
    return envelope(USER_ROLE_GRANTED, 1, { userId, websiteId, role }, identityFacts.meta(at));
  },
  roleRevoked(userId: string, websiteId: string, at: number): UserRoleRevoked {
    return envelope(USER_ROLE_REVOKED, 1, { userId, websiteId }, identityFacts.meta(at));
  },
  tokenIssued(token: { tokenId: string; sha256: string }, userId: string, at: number, { label = '', expiresAt = null as string | null } = {}): ApiTokenIssued {
    return envelope(API_TOKEN_ISSUED, 1, { tokenId: token.tokenId, userId, sha256: token.sha256, label, expiresAt }, identityFacts.meta(at));
  },
  tokenRevoked(tokenId: string, at: number): ApiTokenRevoked {
    return envelope(API_TOKEN_REVOKED, 1, { tokenId }, identityFacts.meta(at));
  },
  linkIssued(link: { id: string; sha256: string }, userId: string, at: number, expiresAt: number): DashboardSignInLinkIssued {
    return envelope(DASHBOARD_SIGN_IN_LINK_ISSUED, 1, { linkId: link.id, userId, sha256: link.sha256, expiresAt: new Date(expiresAt).toISOString() }, identityFacts.meta(at));
  },
  sessionStarted(session: { id: string; sha256: string }, userId: string, at: number, expiresAt: number, opener: { tokenId?: string; linkId?: string } = {}): DashboardSessionStarted {
    const payload = { sessionId: session.id, userId, tokenId: opener.tokenId ?? null, linkId: opener.linkId ?? null, sha256: session.sha256, expiresAt: new Date(expiresAt).toISOString() };
    return envelope(DASHBOARD_SESSION_STARTED, 1, payload, identityFacts.meta(at));
  },
};
