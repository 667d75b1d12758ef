import { parseExpiry } from './parse-expiry';
import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { Clock, validationError } from '@bpc/domain';
import { API_TOKEN_ISSUED, ApiTokenIssued, envelope, IDENTITY_KEY, USER_ROLE_GRANTED, UserRoleGranted } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { newApiToken } from '../domain/api-token';
import { IdentityIndex } from '../index/identity-index';
import { recordIdentityEvents } from '../index/record-identity-events';
import { IssueApiToken, IssuedApiToken } from './issue-api-token.command';

/** Records the role grant and the token's hash, then waits until this process's index knows the token. */
@CommandHandler(IssueApiToken)
export class IssueApiTokenHandler implements ICommandHandler<IssueApiToken, IssuedApiToken> {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly index: IdentityIndex,
  ) {}

  async execute({ input }: IssueApiToken): Promise<IssuedApiToken> {
    if (!this.config.websites.some((w) => w.id === input.websiteId)) throw validationError('website', `unknown website ${input.websiteId}`);
    // Before recording: an index that cannot follow the log would never see the token (the call would time out, the token issued).
    await this.index.ready();
    const now = this.clock.now();
    const expiresAt = input.expiresAt === undefined ? null : parseExpiry(input.expiresAt, now);
    const { tokenId, token, sha256 } = newApiToken();
    const meta = () => ({ id: randomUUID(), occurredAt: new Date(now), key: IDENTITY_KEY });
    const granted: UserRoleGranted = envelope(USER_ROLE_GRANTED, 1, { userId: input.userId, websiteId: input.websiteId, role: input.role }, meta());
    const issued: ApiTokenIssued = envelope(API_TOKEN_ISSUED, 1, { tokenId, userId: input.userId, sha256, label: input.label ?? '', expiresAt }, meta());
    await recordIdentityEvents(this.log, this.index, [granted, issued], 'the token was not issued (the append was not acknowledged)');
    return { tokenId, token, userId: input.userId, websiteId: input.websiteId, role: input.role, expiresAt };
  }
}
