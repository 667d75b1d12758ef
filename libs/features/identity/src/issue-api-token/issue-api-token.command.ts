import type { Role } from '@bpc/events';

export interface IssueApiTokenInput {
  readonly userId: string;
  readonly websiteId: string;
  readonly role: Role;
  readonly label?: string;
  /** ISO 8601 date or timestamp; absent = never expires. */
  readonly expiresAt?: string;
}

/** Grants the user the role on the website and issues a token for the user. */
export class IssueApiToken {
  constructor(readonly input: IssueApiTokenInput) {}
}

export interface IssuedApiToken {
  readonly tokenId: string;
  /** Shown once: only its hash is recorded. */
  readonly token: string;
  readonly userId: string;
  readonly websiteId: string;
  readonly role: Role;
  readonly expiresAt: string | null;
}
