import { Inject, Injectable } from '@nestjs/common';
import { AppError, Clock } from '@bpc/domain';
import { csrfTokenOf, IdentityIndex, liveSession } from '@bpc/identity';
import { CLOCK } from '@bpc/platform';
import type { SessionViewDto } from './dashboard-session.dto';
import { WebsiteViews } from './website-views';

/** SessionView of the session a cookie value opens (UNAUTHENTICATED when it opens none). */
@Injectable()
export class SessionViews {
  constructor(
    private readonly identity: IdentityIndex,
    private readonly websites: WebsiteViews,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async of(sessionSecret: string | undefined): Promise<SessionViewDto> {
    if (sessionSecret === undefined) throw new AppError('UNAUTHENTICATED', 'no dashboard session: sign in with POST /api/session');
    await this.identity.ready();
    const session = liveSession(this.identity.view(), sessionSecret, this.clock.now());
    return {
      userId: session.userId,
      via: session.linkId === null ? 'token' : 'link',
      expiresAt: new Date(session.expiresAt).toISOString(),
      csrfToken: csrfTokenOf(sessionSecret),
      websites: await this.websites.of(session.userId),
    };
  }
}
