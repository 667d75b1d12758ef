import { AppError, sha256Hex } from '@bpc/domain';
import { DASHBOARD_SESSION_STARTED, DashboardSessionStarted, IDENTITY_KEY, TOPICS } from '@bpc/events';
import { createLogger, ReadinessRegistry } from '@bpc/platform';
import { FollowedIdentity, followIdentity, identityFacts, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { newApiToken } from '../domain/api-token';
import { newSignInLinkSecret } from '../domain/dashboard-secrets';
import { liveSession } from '../domain/dashboard-session';
import { IdentityIndex } from '../index/identity-index';
import { StartDashboardSession } from './start-dashboard-session.command';
import { StartDashboardSessionHandler } from './start-dashboard-session.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('StartDashboardSession', () => {
  let state: StandaloneState;
  let identity: FollowedIdentity;
  let handler: StartDashboardSessionHandler;
  let clock: TestClock;
  // Ann holds a token without expiry, one expiring in an hour, and a revoked one; a sign-in link was made for her.
  const lasting = newApiToken();
  const shortLived = newApiToken();
  const revoked = newApiToken();
  const link = newSignInLinkSecret();

  beforeEach(async () => {
    state = await openStandaloneState({ dashboard: { session_ttl_hours: 12 } });
    identity = await followIdentity(state);
    clock = new TestClock(T);
    handler = new StartDashboardSessionHandler(state.log, state.config, clock, identity.index);
    const at = T - MINUTE;
    await identity.given(
      identityFacts.roleGranted('ann', 'demo', 'readonly', at),
      identityFacts.tokenIssued(lasting, 'ann', at),
      identityFacts.tokenIssued(shortLived, 'ann', at, { expiresAt: new Date(T + HOUR).toISOString() }),
      identityFacts.tokenIssued(revoked, 'ann', at),
      identityFacts.tokenRevoked(revoked.tokenId, at),
      identityFacts.linkIssued(link, 'ann', at, T + 14 * MINUTE),
    );
  });

  afterEach(async () => {
    await identity.stop();
    await state.close();
  });

  const started = async () => (await state.recorded(TOPICS.identity)).filter((e): e is DashboardSessionStarted => e.type === DASHBOARD_SESSION_STARTED);
  const refusal = (promise: Promise<unknown>) => promise.then(() => 'started', (error: AppError) => ({ code: error.code, field: error.field, message: error.message }));

  it('opens a session for a token’s user for session_ttl_hours, records only its hash, and the cookie works as soon as it is answered', async () => {
    const session = await handler.execute(new StartDashboardSession({ token: lasting.token }));

    expect(session).toEqual({ sessionId: expect.stringMatching(/^ses_[0-9a-f]{16}$/), secret: expect.stringMatching(/^bpc_ses_/), userId: 'ann', via: 'token', expiresAt: T + 12 * HOUR });
    const [event] = await started();
    expect(event).toMatchObject({ key: IDENTITY_KEY, occurredAt: new Date(T).toISOString() });
    expect(event.payload).toEqual({ sessionId: session.sessionId, userId: 'ann', tokenId: lasting.tokenId, linkId: null, sha256: sha256Hex(session.secret), expiresAt: new Date(T + 12 * HOUR).toISOString() });
    expect(JSON.stringify(event)).not.toContain(session.secret);
    expect(liveSession(identity.index.view(), session.secret, T)).toMatchObject({ sessionId: session.sessionId, tokenId: lasting.tokenId });
  });

  it('never lets a session outlive the token it was opened with', async () => {
    const session = await handler.execute(new StartDashboardSession({ token: shortLived.token }));
    expect(session.expiresAt).toBe(T + HOUR);
    expect((await started())[0].payload.expiresAt).toBe(new Date(T + HOUR).toISOString());
  });

  it.each([
    ['an unknown token', () => newApiToken().token, 'unknown API token'],
    ['a revoked token', () => revoked.token, 'API token revoked'],
  ])('refuses %s with UNAUTHENTICATED naming token, and records nothing', async (_what, token, message) => {
    expect(await refusal(handler.execute(new StartDashboardSession({ token: token() })))).toEqual({ code: 'UNAUTHENTICATED', field: 'token', message });
    expect(await started()).toEqual([]);
  });

  it('refuses a token past its expiry with UNAUTHENTICATED naming token', async () => {
    clock.advance(HOUR);
    expect(await refusal(handler.execute(new StartDashboardSession({ token: shortLived.token })))).toEqual({ code: 'UNAUTHENTICATED', field: 'token', message: 'API token expired' });
  });

  it('opens a session with a sign-in link once: the link is bound to it, and a second use is refused naming link', async () => {
    const session = await handler.execute(new StartDashboardSession({ link: link.secret }));
    expect(session).toMatchObject({ userId: 'ann', via: 'link', expiresAt: T + 12 * HOUR });
    expect((await started())[0].payload).toMatchObject({ tokenId: null, linkId: link.id });
    expect(identity.index.view().links.get(link.id)?.sessionId).toBe(session.sessionId);

    expect(await refusal(handler.execute(new StartDashboardSession({ link: link.secret })))).toEqual({ code: 'UNAUTHENTICATED', field: 'link', message: 'sign-in link already used: ask for a new one' });
    expect(await started()).toHaveLength(1);
  });

  it('of two uses of one link at the same time, starts exactly one session: the log’s order decides, the other is refused naming link', async () => {
    const uses = await Promise.all([1, 2].map(() => refusal(handler.execute(new StartDashboardSession({ link: link.secret })))));

    expect(uses.filter((use) => use === 'started')).toHaveLength(1);
    expect(uses.filter((use) => use !== 'started')).toEqual([{ code: 'UNAUTHENTICATED', field: 'link', message: 'sign-in link already used: ask for a new one' }]);
    // Both passed the link check and recorded a start; the index kept the first in the log only.
    const [first, second] = await started();
    expect(second.payload.linkId).toBe(link.id);
    const view = identity.index.view();
    expect(view.links.get(link.id)?.sessionId).toBe(first.payload.sessionId);
    expect(view.sessions.has(second.payload.sessionId)).toBe(false);
  });

  it('refuses an expired or unknown link with UNAUTHENTICATED naming link, and records nothing', async () => {
    clock.advance(14 * MINUTE);
    expect(await refusal(handler.execute(new StartDashboardSession({ link: link.secret })))).toMatchObject({ code: 'UNAUTHENTICATED', field: 'link', message: 'sign-in link expired: ask for a new one' });
    expect(await refusal(handler.execute(new StartDashboardSession({ link: newSignInLinkSecret().secret })))).toMatchObject({ code: 'UNAUTHENTICATED', field: 'link' });
    expect(await started()).toEqual([]);
  });

  it('answers LOG_UNAVAILABLE while the index has not caught up (no credential can be checked yet)', async () => {
    const behind = new IdentityIndex(state.log, createLogger('silent', 'identity'), state.config, new ReadinessRegistry());
    const refused = await refusal(new StartDashboardSessionHandler(state.log, state.config, clock, behind).execute(new StartDashboardSession({ token: lasting.token })));
    expect(refused).toMatchObject({ code: 'LOG_UNAVAILABLE' });
  });

  it('answers LOG_UNAVAILABLE when the log refuses the append: no session was started, the link is still unused', async () => {
    await state.closeLog();
    expect(await refusal(handler.execute(new StartDashboardSession({ link: link.secret })))).toMatchObject({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/no session was started/) });
    expect(identity.index.view().links.get(link.id)?.sessionId).toBeNull();
  });
});
