import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppError, Clock } from '@bpc/domain';
import { API_TOKEN_REVOKED, ApiTokenRevoked, envelope, IDENTITY_KEY } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { IdentityIndex } from '../index/identity-index';
import { recordIdentityEvents } from '../index/record-identity-events';
import { RevokeApiToken } from './revoke-api-token.command';

/** Records the revocation and answers once this process refuses the token. */
@CommandHandler(RevokeApiToken)
export class RevokeApiTokenHandler implements ICommandHandler<RevokeApiToken, { tokenId: string; revoked: true }> {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly index: IdentityIndex,
  ) {}

  async execute({ tokenId }: RevokeApiToken): Promise<{ tokenId: string; revoked: true }> {
    // An index that has not caught up does not know every token: 503, not a wrong 404.
    await this.index.ready();
    if (!this.index.view().tokens.has(tokenId)) throw new AppError('NOT_FOUND', `no token ${tokenId}`);
    const event: ApiTokenRevoked = envelope(API_TOKEN_REVOKED, 1, { tokenId }, { id: randomUUID(), occurredAt: new Date(this.clock.now()), key: IDENTITY_KEY });
    await recordIdentityEvents(this.log, this.index, [event], 'the revocation was not acknowledged (most likely not recorded: revoke again)');
    return { tokenId, revoked: true };
  }
}
