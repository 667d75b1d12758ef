import { createLogger, ReadinessRegistry } from '@bpc/platform';
import { sha256Hex } from '@bpc/domain';
import { API_TOKEN_ISSUED, IDENTITY_KEY, TOPICS, USER_ROLE_GRANTED } from '@bpc/events';
import { FollowedIdentity, followIdentity, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { authenticate } from '../domain/authorize';
import { IdentityIndex } from '../index/identity-index';
import { IssueApiToken } from './issue-api-token.command';
import { IssueApiTokenHandler } from './issue-api-token.handler';

const T = Date.parse('2026-11-28T02:00:00Z');

describe('IssueApiToken', () => {
  let state: StandaloneState;
  let identity: FollowedIdentity;
  let handler: IssueApiTokenHandler;
  const clock = new TestClock(T);

  beforeEach(async () => {
    state = await openStandaloneState({ websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'acme' }] });
    identity = await followIdentity(state);
    handler = new IssueApiTokenHandler(state.log, state.config, clock, identity.index);
  });

  afterEach(async () => {
    await identity.stop();
    await state.close();
  });

  const recorded = () => state.recorded(TOPICS.identity);
  const roles = (userId: string) => Object.fromEntries(identity.index.view().roles.get(userId) ?? []);

  it('records the role grant, then the token’s hash (never the token), and the token works as soon as it is answered', async () => {
    const issued = await handler.execute(new IssueApiToken({ userId: 'ann', websiteId: 'demo', role: 'manager', label: 'ci', expiresAt: '2027-01-01' }));

    expect(issued).toEqual({ tokenId: expect.stringMatching(/^tok_[0-9a-f]{16}$/), token: expect.stringMatching(/^bpc_tok_/), userId: 'ann', websiteId: 'demo', role: 'manager', expiresAt: '2027-01-01T00:00:00.000Z' });
    const events = await recorded();
    expect(events.map(({ type, key, occurredAt, payload }) => ({ type, key, occurredAt, payload }))).toEqual([
      { type: USER_ROLE_GRANTED, key: IDENTITY_KEY, occurredAt: new Date(T).toISOString(), payload: { userId: 'ann', websiteId: 'demo', role: 'manager' } },
      { type: API_TOKEN_ISSUED, key: IDENTITY_KEY, occurredAt: new Date(T).toISOString(), payload: { tokenId: issued.tokenId, userId: 'ann', sha256: sha256Hex(issued.token), label: 'ci', expiresAt: '2027-01-01T00:00:00.000Z' } },
    ]);
    expect(JSON.stringify(events)).not.toContain(issued.token);
    // No wait: this process's index has applied both events before the answer.
    expect(authenticate(identity.index.view(), `Bearer ${issued.token}`, T)).toMatchObject({ userId: 'ann', tokenId: issued.tokenId });
    expect(roles('ann')).toEqual({ demo: 'manager' });
  });

  it('issues a token that never expires, with an empty label, when neither is given', async () => {
    const issued = await handler.execute(new IssueApiToken({ userId: 'ann', websiteId: 'demo', role: 'readonly' }));
    expect(issued.expiresAt).toBeNull();
    expect((await recorded())[1].payload).toMatchObject({ label: '', expiresAt: null });
  });

  it('keeps one role per user and website: a later token’s role replaces it (for the user’s earlier tokens too); other websites keep theirs', async () => {
    const first = await handler.execute(new IssueApiToken({ userId: 'ann', websiteId: 'demo', role: 'admin' }));
    await handler.execute(new IssueApiToken({ userId: 'ann', websiteId: 'shop', role: 'manager' }));
    await handler.execute(new IssueApiToken({ userId: 'ann', websiteId: 'demo', role: 'readonly' }));
    expect(roles('ann')).toEqual({ demo: 'readonly', shop: 'manager' });
    expect(authenticate(identity.index.view(), `Bearer ${first.token}`, T)).toMatchObject({ userId: 'ann' });
  });

  it.each([
    ['an unknown website', { websiteId: 'nope' }, 'website'],
    ['an expiry in the past', { expiresAt: '2026-11-27' }, 'expiresAt'],
    ['an expiry that is no date', { expiresAt: '2026-02-30' }, 'expiresAt'],
    ['an expiry in server-local time', { expiresAt: '2027-01-01T10:00' }, 'expiresAt'],
  ])('refuses %s with VALIDATION_FAILED naming the field, and records nothing', async (_what, over, field) => {
    await expect(handler.execute(new IssueApiToken({ userId: 'ann', websiteId: 'demo', role: 'manager', ...over }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(await recorded()).toEqual([]);
  });

  it('refuses with LOG_UNAVAILABLE, recording nothing, while the index cannot follow the log (it would never see the token)', async () => {
    const notFollowing = new IdentityIndex(state.log, createLogger('silent', 'identity'), state.config, new ReadinessRegistry());
    const blind = new IssueApiTokenHandler(state.log, state.config, clock, notFollowing);
    await expect(blind.execute(new IssueApiToken({ userId: 'ann', websiteId: 'demo', role: 'manager' }))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE' });
    expect(await recorded()).toEqual([]);
  });

  it('refuses with LOG_UNAVAILABLE when the log refuses the append: no token was issued', async () => {
    await state.closeLog();
    await expect(handler.execute(new IssueApiToken({ userId: 'ann', websiteId: 'demo', role: 'manager' }))).rejects.toMatchObject({
      code: 'LOG_UNAVAILABLE',
      message: expect.stringMatching(/^event log unavailable, the token was not issued/),
    });
    expect(identity.index.view().tokens.size).toBe(0);
    expect(await recorded()).toEqual([]);
  });
});
