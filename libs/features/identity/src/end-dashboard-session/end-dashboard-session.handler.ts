import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@bpc/domain';
import { DASHBOARD_SESSION_ENDED, DashboardSessionEnded, envelope, IDENTITY_KEY } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { IdentityIndex } from '../index/identity-index';
import { recordIdentityEvents } from '../index/record-identity-events';
import { EndDashboardSession } from './end-dashboard-session.command';

/** Records the sign-out and answers once this process refuses the session (other replicas follow as they apply it). */
@CommandHandler(EndDashboardSession)
export class EndDashboardSessionHandler implements ICommandHandler<EndDashboardSession, void> {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly index: IdentityIndex,
  ) {}

  async execute({ sessionId }: EndDashboardSession): Promise<void> {
    const event: DashboardSessionEnded = envelope(DASHBOARD_SESSION_ENDED, 1, { sessionId }, { id: randomUUID(), occurredAt: new Date(this.clock.now()), key: IDENTITY_KEY });
    await recordIdentityEvents(this.log, this.index, [event], 'the sign-out was not acknowledged (most likely not recorded: sign out again)');
  }
}
