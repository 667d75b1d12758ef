import { sha256Hex } from '@bpc/domain';
import { DASHBOARD_SIGN_IN_LINK_ISSUED, IDENTITY_KEY, TOPICS } from '@bpc/events';
import { FollowedIdentity, followIdentity, identityFacts, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { usableSignInLink } from '../domain/dashboard-session';
import { IssueDashboardSignInLink } from './issue-dashboard-sign-in-link.command';
import { IssueDashboardSignInLinkHandler } from './issue-dashboard-sign-in-link.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const MINUTE = 60_000;

describe('IssueDashboardSignInLink', () => {
  let state: StandaloneState;
  let identity: FollowedIdentity;
  let handler: IssueDashboardSignInLinkHandler;
  const clock = new TestClock(T);

  beforeEach(async () => {
    state = await openStandaloneState({ dashboard: { link_ttl_minutes: 5 } });
    identity = await followIdentity(state);
    handler = new IssueDashboardSignInLinkHandler(state.log, state.config, clock, identity.index);
    // Given ann with a role on demo, and bob whose only role was taken back.
    await identity.given(
      identityFacts.roleGranted('ann', 'demo', 'readonly', T - MINUTE),
      identityFacts.roleGranted('bob', 'demo', 'manager', T - MINUTE),
      identityFacts.roleRevoked('bob', 'demo', T - MINUTE),
    );
  });

  afterEach(async () => {
    await identity.stop();
    await state.close();
  });

  const links = async () => (await state.recorded(TOPICS.identity)).filter((e) => e.type === DASHBOARD_SIGN_IN_LINK_ISSUED);

  it('records the link’s hash (never its secret), valid for link_ttl_minutes, and answers once this process accepts it', async () => {
    const link = await handler.execute(new IssueDashboardSignInLink('ann'));

    const expiresAt = new Date(T + 5 * MINUTE).toISOString();
    expect(link).toEqual({ linkId: expect.stringMatching(/^lnk_[0-9a-f]{16}$/), secret: expect.stringMatching(/^bpc_lnk_/), userId: 'ann', expiresAt });
    const recorded = await links();
    expect(recorded).toEqual([expect.objectContaining({ key: IDENTITY_KEY, occurredAt: new Date(T).toISOString(), payload: { linkId: link.linkId, userId: 'ann', sha256: sha256Hex(link.secret), expiresAt } })]);
    expect(JSON.stringify(recorded)).not.toContain(link.secret);
    expect(usableSignInLink(identity.index.view(), link.secret, T)).toMatchObject({ linkId: link.linkId, userId: 'ann', sessionId: null });
    expect(() => usableSignInLink(identity.index.view(), link.secret, T + 5 * MINUTE)).toThrow('sign-in link expired');
  });

  it.each([
    ['a user never granted a role', 'carl'],
    ['a user whose every role was revoked', 'bob'],
  ])('refuses %s with VALIDATION_FAILED naming user (the link would open an empty dashboard), and records nothing', async (_what, userId) => {
    await expect(handler.execute(new IssueDashboardSignInLink(userId))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'user', message: expect.stringMatching(/has no role on any website/) });
    expect(await links()).toEqual([]);
  });

  it('answers LOG_UNAVAILABLE when the log refuses the append: no link was issued', async () => {
    await state.closeLog();
    await expect(handler.execute(new IssueDashboardSignInLink('ann'))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/the link was not issued/) });
    expect(identity.index.view().links.size).toBe(0);
  });
});
