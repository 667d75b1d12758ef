import { AppError } from '@bpc/domain';
import { API_TOKEN_REVOKED, IDENTITY_KEY, TOPICS } from '@bpc/events';
import { createLogger, ReadinessRegistry } from '@bpc/platform';
import { FollowedIdentity, followIdentity, identityFacts, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { newApiToken } from '../domain/api-token';
import { authenticate } from '../domain/authorize';
import { IdentityIndex } from '../index/identity-index';
import { RevokeApiToken } from './revoke-api-token.command';
import { RevokeApiTokenHandler } from './revoke-api-token.handler';

const T = Date.parse('2026-11-28T02:00:00Z');

describe('RevokeApiToken', () => {
  let state: StandaloneState;
  let identity: FollowedIdentity;
  let handler: RevokeApiTokenHandler;
  const clock = new TestClock(T);
  const ann = newApiToken();

  beforeEach(async () => {
    state = await openStandaloneState();
    identity = await followIdentity(state);
    handler = new RevokeApiTokenHandler(state.log, clock, identity.index);
    // Given ann, manager of demo, holding a token.
    await identity.given(identityFacts.roleGranted('ann', 'demo', 'manager', T - 60_000), identityFacts.tokenIssued(ann, 'ann', T - 60_000));
  });

  afterEach(async () => {
    await identity.stop();
    await state.close();
  });

  const revocations = async () => (await state.recorded(TOPICS.identity)).filter((e) => e.type === API_TOKEN_REVOKED);
  const refusalOf = (token: string) => {
    try {
      authenticate(identity.index.view(), `Bearer ${token}`, clock.now());
      return 'accepted';
    } catch (error) {
      return (error as AppError).message;
    }
  };

  it('records ApiTokenRevoked and answers once this process refuses the token', async () => {
    expect(refusalOf(ann.token)).toBe('accepted');
    expect(await handler.execute(new RevokeApiToken(ann.tokenId))).toEqual({ tokenId: ann.tokenId, revoked: true });
    expect(refusalOf(ann.token)).toBe('API token revoked');
    expect(await revocations()).toEqual([expect.objectContaining({ key: IDENTITY_KEY, occurredAt: new Date(T).toISOString(), payload: { tokenId: ann.tokenId } })]);
    // The user keeps her role: only the token ends.
    expect(identity.index.view().roles.get('ann')?.get('demo')).toBe('manager');
  });

  it('answers a second revocation the same way (safe to repeat); the token keeps the time it was first revoked', async () => {
    await handler.execute(new RevokeApiToken(ann.tokenId));
    clock.advance(1_000);
    expect(await handler.execute(new RevokeApiToken(ann.tokenId))).toEqual({ tokenId: ann.tokenId, revoked: true });
    expect(identity.index.view().tokens.get(ann.tokenId)?.revokedAt).toBe(new Date(T).toISOString());
  });

  it('refuses an unknown token with NOT_FOUND, and records nothing', async () => {
    await expect(handler.execute(new RevokeApiToken('tok_0000000000000000'))).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'no token tok_0000000000000000' });
    expect(await revocations()).toEqual([]);
  });

  it('answers LOG_UNAVAILABLE, not a wrong NOT_FOUND, while the index has not caught up with the log', async () => {
    const behind = new IdentityIndex(state.log, createLogger('silent', 'identity'), state.config, new ReadinessRegistry());
    await expect(new RevokeApiTokenHandler(state.log, clock, behind).execute(new RevokeApiToken(ann.tokenId))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE' });
    expect(await revocations()).toEqual([]);
  });

  it('answers LOG_UNAVAILABLE, saying to revoke again, when the log refuses the append; the token still works', async () => {
    await state.closeLog();
    await expect(handler.execute(new RevokeApiToken(ann.tokenId))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/revoke again/) });
    expect(refusalOf(ann.token)).toBe('accepted');
  });
});
