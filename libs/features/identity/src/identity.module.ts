import { Module } from '@nestjs/common';
import { HealthModule } from '@bpc/platform';
import { IdentityIndex } from './index/identity-index';
import { IssueApiTokenHandler } from './issue-api-token/issue-api-token.handler';
import { ListApiTokensHandler } from './list-api-tokens/list-api-tokens.handler';
import { RevokeApiTokenHandler } from './revoke-api-token/revoke-api-token.handler';
import { StartDashboardSessionHandler } from './start-dashboard-session/start-dashboard-session.handler';
import { EndDashboardSessionHandler } from './end-dashboard-session/end-dashboard-session.handler';
import { IssueDashboardSignInLinkHandler } from './issue-dashboard-sign-in-link/issue-dashboard-sign-in-link.handler';

/** Users, roles, API tokens and dashboard sessions; the importing module provides CqrsModule. HealthModule: readiness reports the identity index. */
@Module({
  imports: [HealthModule],
  providers: [
    IdentityIndex,
    IssueApiTokenHandler,
    RevokeApiTokenHandler,
    ListApiTokensHandler,
    StartDashboardSessionHandler,
    EndDashboardSessionHandler,
    IssueDashboardSignInLinkHandler,
  ],
  exports: [IdentityIndex],
})
export class IdentityModule {}
