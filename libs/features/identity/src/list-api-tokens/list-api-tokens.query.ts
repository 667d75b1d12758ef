import type { Role } from '@bpc/events';

export class ListApiTokens {}

export interface ApiTokenListing {
  readonly tokenId: string;
  readonly userId: string;
  readonly label: string;
  readonly issuedAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  /** The user's roles per website, as of now. */
  readonly roles: Readonly<Record<string, Role>>;
}
