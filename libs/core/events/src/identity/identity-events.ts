import type { EventDefinition } from '../event-definition';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { TOPICS } from '../topics';

export const USER_ROLE_GRANTED = 'UserRoleGranted';
export const USER_ROLE_REVOKED = 'UserRoleRevoked';
export const API_TOKEN_ISSUED = 'ApiTokenIssued';
export const API_TOKEN_REVOKED = 'ApiTokenRevoked';
export const DASHBOARD_SIGN_IN_LINK_ISSUED = 'DashboardSignInLinkIssued';
export const DASHBOARD_SESSION_STARTED = 'DashboardSessionStarted';
export const DASHBOARD_SESSION_ENDED = 'DashboardSessionEnded';

/** Roles on a website, weakest first. */
export const ROLES = ['readonly', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type UserRoleGranted = EventEnvelope<typeof USER_ROLE_GRANTED, { readonly userId: string; readonly websiteId: string; readonly role: Role }>;
export type UserRoleRevoked = EventEnvelope<typeof USER_ROLE_REVOKED, { readonly userId: string; readonly websiteId: string }>;
/** Carries only the SHA-256 of the secret: the token itself is shown once to the issuer and never stored. */
export type ApiTokenIssued = EventEnvelope<
  typeof API_TOKEN_ISSUED,
  { readonly tokenId: string; readonly userId: string; readonly sha256: string; readonly label: string; readonly expiresAt: string | null }
>;
export type ApiTokenRevoked = EventEnvelope<typeof API_TOKEN_REVOKED, { readonly tokenId: string }>;

/** A one-time dashboard sign-in link for a user; only the SHA-256 of its secret is recorded. */
export type DashboardSignInLinkIssued = EventEnvelope<
  typeof DASHBOARD_SIGN_IN_LINK_ISSUED,
  { readonly linkId: string; readonly userId: string; readonly sha256: string; readonly expiresAt: string }
>;
/**
 * A dashboard session was opened with an API token (`tokenId`) or a sign-in
 * link (`linkId`); only the SHA-256 of the session secret is recorded. A link
 * opens the first session started with it, in log order; later ones are void.
 */
export type DashboardSessionStarted = EventEnvelope<
  typeof DASHBOARD_SESSION_STARTED,
  {
    readonly sessionId: string;
    readonly userId: string;
    readonly tokenId: string | null;
    readonly linkId: string | null;
    readonly sha256: string;
    readonly expiresAt: string;
  }
>;
export type DashboardSessionEnded = EventEnvelope<typeof DASHBOARD_SESSION_ENDED, { readonly sessionId: string }>;

/** Users, roles, tokens and dashboard sessions, on one topic under one key so their order is total. */
export type IdentityEvent =
  | UserRoleGranted
  | UserRoleRevoked
  | ApiTokenIssued
  | ApiTokenRevoked
  | DashboardSignInLinkIssued
  | DashboardSessionStarted
  | DashboardSessionEnded;

export const IDENTITY_KEY = 'identity';

const userId = { type: 'string', description: 'user identifier' } as const;
const websiteId = { type: 'string', description: 'website identifier' } as const;
const tokenId = { type: 'string', description: 'public token identifier (the tok_… part of the token)' } as const;

const userRoleGrantedSchema = payloadSchema<UserRoleGranted['payload']>()({
  type: 'object', additionalProperties: false, required: ['userId', 'websiteId', 'role'], properties: { userId, websiteId, role: { enum: [...ROLES] } },
});
const userRoleRevokedSchema = payloadSchema<UserRoleRevoked['payload']>()({
  type: 'object', additionalProperties: false, required: ['userId', 'websiteId'], properties: { userId, websiteId },
});
const apiTokenIssuedSchema = payloadSchema<ApiTokenIssued['payload']>()({
  type: 'object', additionalProperties: false, required: ['tokenId', 'userId', 'sha256', 'label', 'expiresAt'],
  properties: {
    tokenId, userId, sha256: { type: 'string', description: 'hex SHA-256 of the whole token' }, label: { type: 'string', description: 'empty when none was given' },
    expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'null: never expires' },
  },
});
const apiTokenRevokedSchema = payloadSchema<ApiTokenRevoked['payload']>()({ type: 'object', additionalProperties: false, required: ['tokenId'], properties: { tokenId } });
const sha256 = { type: 'string', description: 'hex SHA-256 of the whole secret' } as const;
const linkId = { type: 'string', description: 'public sign-in link identifier (the lnk_… part of the link secret)' } as const;
const sessionId = { type: 'string', description: 'public session identifier (the ses_… part of the session secret)' } as const;
const dashboardSignInLinkIssuedSchema = payloadSchema<DashboardSignInLinkIssued['payload']>()({
  type: 'object', additionalProperties: false, required: ['linkId', 'userId', 'sha256', 'expiresAt'],
  properties: { linkId, userId, sha256, expiresAt: { type: 'string', format: 'date-time', description: 'the link is refused from then on' } },
});
const dashboardSessionStartedSchema = payloadSchema<DashboardSessionStarted['payload']>()({
  type: 'object', additionalProperties: false, required: ['sessionId', 'userId', 'tokenId', 'linkId', 'sha256', 'expiresAt'],
  properties: {
    sessionId, userId,
    tokenId: { type: ['string', 'null'], description: 'the API token the session was opened with (the session ends with it); null for a link' },
    linkId: { type: ['string', 'null'], description: 'the sign-in link the session was opened with; null for a token' },
    sha256, expiresAt: { type: 'string', format: 'date-time', description: 'the session is refused from then on' },
  },
});
const dashboardSessionEndedSchema = payloadSchema<DashboardSessionEnded['payload']>()({ type: 'object', additionalProperties: false, required: ['sessionId'], properties: { sessionId } });

export const IDENTITY_EVENT_CATALOG: Readonly<Record<IdentityEvent['type'], EventDefinition>> = {
  [USER_ROLE_GRANTED]: {
    type: USER_ROLE_GRANTED, version: 1, topic: TOPICS.identity, key: '"identity"', description: 'A user was given a role on a website (replaces any earlier role there).', payload: userRoleGrantedSchema,
  },
  [USER_ROLE_REVOKED]: {
    type: USER_ROLE_REVOKED, version: 1, topic: TOPICS.identity, key: '"identity"', description: 'A user lost every role on a website.', payload: userRoleRevokedSchema,
  },
  [API_TOKEN_ISSUED]: {
    type: API_TOKEN_ISSUED, version: 1, topic: TOPICS.identity, key: '"identity"', description: 'An API token was issued to a user; only the SHA-256 of the token is recorded.', payload: apiTokenIssuedSchema,
  },
  [API_TOKEN_REVOKED]: {
    type: API_TOKEN_REVOKED, version: 1, topic: TOPICS.identity, key: '"identity"', description: 'An API token was revoked; it is refused from then on.', payload: apiTokenRevokedSchema,
  },
  [DASHBOARD_SIGN_IN_LINK_ISSUED]: {
    type: DASHBOARD_SIGN_IN_LINK_ISSUED, version: 1, topic: TOPICS.identity, key: '"identity"',
    description: 'A one-time dashboard sign-in link was issued to a user; only the SHA-256 of its secret is recorded.', payload: dashboardSignInLinkIssuedSchema,
  },
  [DASHBOARD_SESSION_STARTED]: {
    type: DASHBOARD_SESSION_STARTED, version: 1, topic: TOPICS.identity, key: '"identity"',
    description: 'A dashboard session was opened with an API token or a sign-in link (a link opens only the first session started with it); only the SHA-256 of the session secret is recorded.',
    payload: dashboardSessionStartedSchema,
  },
  [DASHBOARD_SESSION_ENDED]: {
    type: DASHBOARD_SESSION_ENDED, version: 1, topic: TOPICS.identity, key: '"identity"', description: 'A dashboard session was signed out; it is refused from then on.', payload: dashboardSessionEndedSchema,
  },
};

export function asIdentityEvent(event: { type: string; version: number }): IdentityEvent | undefined {
  const definition = (IDENTITY_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as IdentityEvent) : undefined;
}
