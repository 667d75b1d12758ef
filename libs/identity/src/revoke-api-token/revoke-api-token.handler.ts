import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppError, Clock } from '@bpc/domain';
import { API_TOKEN_REVOKED, ApiTokenRevoked, envelope, IDENTITY_KEY, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { IdentityIndex } from '../index/identity-index';
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
    try {
      await this.log.append(TOPICS.identity, [event]);
    } catch (error) {
      throw new AppError('LOG_UNAVAILABLE', `event log unavailable, the revocation was not acknowledged (most likely not recorded: revoke again): ${(error as Error).message}`);
    }
    await this.index.waitFor(event.id);
    return { tokenId, revoked: true };
  }
}
