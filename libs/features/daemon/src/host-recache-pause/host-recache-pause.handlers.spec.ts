import { HOST_PAUSE_MS } from '@bpc/domain';
import { HOST_RECACHE_PAUSED, HOST_RECACHE_RESUMED, TOPICS } from '@bpc/events';
import { openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { PauseHostRecache, ResumeHostRecache } from './host-recache-pause.commands';
import { PauseHostRecacheHandler, ResumeHostRecacheHandler } from './host-recache-pause.handlers';

const T = Date.parse('2026-11-28T02:00:00.750Z');

describe('PauseHostRecache and ResumeHostRecache', () => {
  let state: StandaloneState;
  let pause: PauseHostRecacheHandler;
  let resume: ResumeHostRecacheHandler;
  let clock: TestClock;

  beforeEach(async () => {
    state = await openStandaloneState();
    clock = new TestClock(T);
    pause = new PauseHostRecacheHandler(state.hosts, state.log, state.queue, clock);
    resume = new ResumeHostRecacheHandler(state.hosts, state.log, state.queue, clock);
  });

  afterEach(() => state.close());

  const pauseEvents = async () => (await state.recorded(TOPICS.queue)).filter((e) => e.type === HOST_RECACHE_PAUSED || e.type === HOST_RECACHE_RESUMED);
  const pausedHosts = () => state.queue.pausedHosts(clock.now());

  it('records HostRecachePaused for three hours and answers when it ends, in Unix seconds; the store skips the host until then', async () => {
    const answer = await pause.execute(new PauseHostRecache(1));

    expect(answer).toEqual({ paused: true, expires_at: Math.floor((T + HOST_PAUSE_MS) / 1000) });
    expect(await pauseEvents()).toEqual([expect.objectContaining({ type: HOST_RECACHE_PAUSED, key: '1', occurredAt: new Date(T).toISOString(), payload: { hostId: 1, expiresAt: T + HOST_PAUSE_MS } })]);
    expect(await pausedHosts()).toEqual(new Map([[1, T + HOST_PAUSE_MS]]));
    clock.advance(HOST_PAUSE_MS);
    expect(await pausedHosts()).toEqual(new Map());
  });

  it('starts a fresh three hours when the host is paused again', async () => {
    await pause.execute(new PauseHostRecache(1));
    clock.advance(HOST_PAUSE_MS - 1_000);
    const again = await pause.execute(new PauseHostRecache(1));
    expect(again.expires_at).toBe(Math.floor((clock.now() + HOST_PAUSE_MS) / 1000));
    expect(await pausedHosts()).toEqual(new Map([[1, clock.now() + HOST_PAUSE_MS]]));
  });

  it('records HostRecacheResumed and drains the host again; resuming a host that is not paused is harmless', async () => {
    await pause.execute(new PauseHostRecache(1));
    expect(await resume.execute(new ResumeHostRecache(1))).toEqual({ paused: false });
    expect(await pausedHosts()).toEqual(new Map());
    expect(await resume.execute(new ResumeHostRecache(1))).toEqual({ paused: false });
    expect((await pauseEvents()).map((e) => [e.type, e.payload])).toEqual([
      [HOST_RECACHE_PAUSED, { hostId: 1, expiresAt: T + HOST_PAUSE_MS }],
      [HOST_RECACHE_RESUMED, { hostId: 1 }],
      [HOST_RECACHE_RESUMED, { hostId: 1 }],
    ]);
  });

  it('pauses one host only', async () => {
    await pause.execute(new PauseHostRecache(2));
    expect([...(await pausedHosts()).keys()]).toEqual([2]);
  });

  it('refuses an unknown host with VALIDATION_FAILED naming host_id, and records nothing', async () => {
    await expect(pause.execute(new PauseHostRecache(9))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'host_id' });
    await expect(resume.execute(new ResumeHostRecache(9))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'host_id' });
    expect(await pauseEvents()).toEqual([]);
  });

  it('refuses with STORE_UNAVAILABLE, recording nothing, when the queue store cannot be reached', async () => {
    await state.queue.close();
    await expect(pause.execute(new PauseHostRecache(1))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/nothing was changed/) });
    await expect(resume.execute(new ResumeHostRecache(1))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(await pauseEvents()).toEqual([]);
  });

  it('refuses with LOG_UNAVAILABLE when the event log refuses the append, and the host is not paused', async () => {
    await state.closeLog();
    await expect(pause.execute(new PauseHostRecache(1))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE' });
    expect(await pausedHosts()).toEqual(new Map());
    expect(await pauseEvents()).toEqual([]);
  });
});
