import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock } from '@bpc/domain';
import { DASHBOARD_SESSION_STARTED, DashboardSessionStarted, envelope, IDENTITY_KEY } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { authenticateToken } from '../domain/authorize';
import { newSessionSecret } from '../domain/dashboard-secrets';
import { usableSignInLink } from '../domain/dashboard-session';
import { IdentityIndex } from '../index/identity-index';
import { recordIdentityEvents } from '../index/record-identity-events';
import { StartDashboardSession, StartedDashboardSession } from './start-dashboard-session.command';

/**
 * Records a new session for the token's or the link's user. A link is single
 * use by log order: the session is started, and accepted only once this
 * process's index has applied it and bound the link to it; of two concurrent
 * uses (here or on another replica) exactly one is bound, the other refused.
 */
@CommandHandler(StartDashboardSession)
export class StartDashboardSessionHandler implements ICommandHandler<StartDashboardSession, StartedDashboardSession> {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly index: IdentityIndex,
  ) {}

  async execute({ credential }: StartDashboardSession): Promise<StartedDashboardSession> {
    await this.index.ready();
    const now = this.clock.now();
    const state = this.index.view();
    let expiresAt = now + this.config.dashboard.session_ttl_hours * 3_600_000;
    let opener: { userId: string; tokenId: string | null; linkId: string | null };
    if ('token' in credential) {
      const token = authenticateToken(state, credential.token, now, 'token');
      // Never outlives the token: the cookie's Max-Age says when it ends anyway.
      if (token.expiresAt !== null) expiresAt = Math.min(expiresAt, token.expiresAt);
      opener = { userId: token.userId, tokenId: token.tokenId, linkId: null };
    } else {
      const link = usableSignInLink(state, credential.link, now);
      opener = { userId: link.userId, tokenId: null, linkId: link.linkId };
    }
    const { id: sessionId, secret, sha256 } = newSessionSecret();
    const started: DashboardSessionStarted = envelope(
      DASHBOARD_SESSION_STARTED,
      1,
      { sessionId, ...opener, sha256, expiresAt: new Date(expiresAt).toISOString() },
      { id: randomUUID(), occurredAt: new Date(now), key: IDENTITY_KEY },
    );
    await recordIdentityEvents(this.log, this.index, [started], 'no session was started');
    const boundTo = opener.linkId === null ? sessionId : this.index.view().links.get(opener.linkId)?.sessionId;
    if (boundTo !== sessionId) {
      throw new AppError('UNAUTHENTICATED', boundTo ? 'sign-in link already used: ask for a new one' : 'sign-in link expired: ask for a new one', 'link');
    }
    return { sessionId, secret, userId: opener.userId, via: opener.linkId === null ? 'token' : 'link', expiresAt };
  }
}
