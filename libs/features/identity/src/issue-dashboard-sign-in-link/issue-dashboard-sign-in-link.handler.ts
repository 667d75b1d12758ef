import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { Clock, validationError } from '@bpc/domain';
import { DASHBOARD_SIGN_IN_LINK_ISSUED, DashboardSignInLinkIssued, envelope, IDENTITY_KEY } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { newSignInLinkSecret } from '../domain/dashboard-secrets';
import { IdentityIndex } from '../index/identity-index';
import { recordIdentityEvents } from '../index/record-identity-events';
import { IssueDashboardSignInLink, IssuedDashboardSignInLink } from './issue-dashboard-sign-in-link.command';

/** Records the link's hash and answers once this process accepts the link. */
@CommandHandler(IssueDashboardSignInLink)
export class IssueDashboardSignInLinkHandler implements ICommandHandler<IssueDashboardSignInLink, IssuedDashboardSignInLink> {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly index: IdentityIndex,
  ) {}

  async execute({ userId }: IssueDashboardSignInLink): Promise<IssuedDashboardSignInLink> {
    await this.index.ready();
    // A user exists once granted a role; a link for anyone else would open an empty dashboard.
    if (!this.index.view().roles.get(userId)?.size) throw validationError('user', `user ${userId} has no role on any website (grant one with tokens issue)`);
    const now = this.clock.now();
    const expiresAt = new Date(now + this.config.dashboard.link_ttl_minutes * 60_000).toISOString();
    const { id: linkId, secret, sha256 } = newSignInLinkSecret();
    const issued: DashboardSignInLinkIssued = envelope(DASHBOARD_SIGN_IN_LINK_ISSUED, 1, { linkId, userId, sha256, expiresAt }, { id: randomUUID(), occurredAt: new Date(now), key: IDENTITY_KEY });
    await recordIdentityEvents(this.log, this.index, [issued], 'the link was not issued');
    return { linkId, secret, userId, expiresAt };
  }
}
