import { DASHBOARD_SESSION_ENDED, IDENTITY_KEY, TOPICS } from '@bpc/events';
import { FollowedIdentity, followIdentity, identityFacts, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { newSessionSecret } from '../domain/dashboard-secrets';
import { liveSession } from '../domain/dashboard-session';
import { EndDashboardSession } from './end-dashboard-session.command';
import { EndDashboardSessionHandler } from './end-dashboard-session.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const HOUR = 3_600_000;

describe('EndDashboardSession', () => {
  let state: StandaloneState;
  let identity: FollowedIdentity;
  let handler: EndDashboardSessionHandler;
  const clock = new TestClock(T);
  const session = newSessionSecret();

  beforeEach(async () => {
    state = await openStandaloneState();
    identity = await followIdentity(state);
    handler = new EndDashboardSessionHandler(state.log, clock, identity.index);
    // Given ann signed in to the dashboard (a link session) an hour ago.
    await identity.given(identityFacts.roleGranted('ann', 'demo', 'readonly', T - HOUR), identityFacts.sessionStarted(session, 'ann', T - HOUR, T + 11 * HOUR));
  });

  afterEach(async () => {
    await identity.stop();
    await state.close();
  });

  const endings = async () => (await state.recorded(TOPICS.identity)).filter((e) => e.type === DASHBOARD_SESSION_ENDED);

  it('records DashboardSessionEnded and answers once this process refuses the session', async () => {
    expect(liveSession(identity.index.view(), session.secret, T).sessionId).toBe(session.id);

    await handler.execute(new EndDashboardSession(session.id));

    expect(() => liveSession(identity.index.view(), session.secret, T)).toThrow('dashboard session signed out: sign in again');
    expect(await endings()).toEqual([expect.objectContaining({ key: IDENTITY_KEY, occurredAt: new Date(T).toISOString(), payload: { sessionId: session.id } })]);
  });

  it('is safe to repeat: the session stays ended as of the first sign-out', async () => {
    await handler.execute(new EndDashboardSession(session.id));
    clock.advance(1_000);
    await handler.execute(new EndDashboardSession(session.id));
    expect(identity.index.view().sessions.get(session.id)?.endedAt).toBe(new Date(T).toISOString());
  });

  it('answers LOG_UNAVAILABLE, saying to sign out again, when the log refuses the append; the session stays live', async () => {
    await state.closeLog();
    await expect(handler.execute(new EndDashboardSession(session.id))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/sign out again/) });
    expect(liveSession(identity.index.view(), session.secret, T).endedAt).toBeNull();
  });
});
