import type { EventDefinition } from '../event-definition';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { TOPICS } from '../topics';

export const USER_ROLE_GRANTED = 'UserRoleGranted';
export const USER_ROLE_REVOKED = 'UserRoleRevoked';
export const API_TOKEN_ISSUED = 'ApiTokenIssued';
export const API_TOKEN_REVOKED = 'ApiTokenRevoked';

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

/** Users, roles and tokens, on one topic under one key so their order is total. */
export type IdentityEvent = UserRoleGranted | UserRoleRevoked | ApiTokenIssued | ApiTokenRevoked;

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
};

export function asIdentityEvent(event: { type: string; version: number }): IdentityEvent | undefined {
  const definition = (IDENTITY_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as IdentityEvent) : undefined;
}
