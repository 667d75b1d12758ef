import { Module } from '@nestjs/common';
import { HealthModule } from '@bpc/platform';
import { IdentityIndex } from './index/identity-index';
import { IssueApiTokenHandler } from './issue-api-token/issue-api-token.handler';
import { ListApiTokensHandler } from './list-api-tokens/list-api-tokens.handler';
import { RevokeApiTokenHandler } from './revoke-api-token/revoke-api-token.handler';

/** Users, roles and API tokens; the importing module provides CqrsModule. HealthModule: readiness reports the identity index. */
@Module({
  imports: [HealthModule],
  providers: [IdentityIndex, IssueApiTokenHandler, RevokeApiTokenHandler, ListApiTokensHandler],
  exports: [IdentityIndex],
})
export class IdentityModule {}
