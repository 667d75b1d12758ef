import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { IdentityIndex } from '../index/identity-index';
import { ApiTokenListing, ListApiTokens } from './list-api-tokens.query';

/** Tokens with their owner's roles; never the secret (it is not stored) nor its hash. */
@QueryHandler(ListApiTokens)
export class ListApiTokensHandler implements IQueryHandler<ListApiTokens, ApiTokenListing[]> {
  constructor(private readonly index: IdentityIndex) {}

  async execute(): Promise<ApiTokenListing[]> {
    // An index that has not caught up would list some tokens only.
    await this.index.ready();
    const { tokens, roles } = this.index.view();
    return [...tokens.values()].map((t) => ({
      tokenId: t.tokenId,
      userId: t.userId,
      label: t.label,
      issuedAt: t.issuedAt,
      expiresAt: t.expiresAt === null ? null : new Date(t.expiresAt).toISOString(),
      revokedAt: t.revokedAt,
      roles: Object.fromEntries(roles.get(t.userId) ?? []),
    }));
  }
}
