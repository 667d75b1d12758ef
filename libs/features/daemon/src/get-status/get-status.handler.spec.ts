import { AUTORECACHE_SCHEDULED, newQueueEvent, RECACHE_REQUESTED } from '@bpc/events';
import { openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { GetStatusHandler } from './get-status.handler';
import type { SchedulerView } from './scheduler-view';

const T = Date.parse('2026-11-28T02:00:00Z');
const page = (p: string, host = 'www.example.com') => `https://${host}/${p}`;
const emptyQueue = { total: 0, due_now: 0 };
const drained = { seconds: 0, completed_per_minute: 0 };

describe('GetStatus', () => {
  let state: StandaloneState;
  let clock: TestClock;
  let lastTick: Date | null;
  const scheduler: SchedulerView = {
    lastTick: () => lastTick,
    internalQueueSize: () => 1,
    renderCapacity: () => ({ freeTabs: 3, reservedForOnline: 1, availableForRecache: 2 }),
  };
  const handler = () => new GetStatusHandler(state.config, state.hosts, state.queue, scheduler, clock, 'daemon-a');

  beforeEach(async () => {
    // Hosts 1 and 2 are configured (testConfig); the log also holds work of host 7, configured no more.
    state = await openStandaloneState({ internal_queue: { max_size: 3 }, render_service: { reservation_percent: 25 } });
    clock = new TestClock(T);
    lastTick = null;
    await state.given(
      newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [page('h')], dimensionIds: [1], priority: 'high', source: 'daemon-api' }, '1', T),
      newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [page('a'), page('b'), page('c')], dimensionIds: [1], priority: 'normal', source: 'daemon-api' }, '1', T),
      newQueueEvent(AUTORECACHE_SCHEDULED, { hostId: 1, url: page('auto'), dimensionId: 1, dueAt: T + 3_600_000 }, '1', T),
      newQueueEvent(RECACHE_REQUESTED, { hostId: 7, urls: [page('x', 'gone.example.net')], dimensionIds: [1], priority: 'normal', source: 'daemon-api' }, '7', T),
    );
  });

  afterEach(() => state.close());

  it('shows every configured host (empty ones too) and every host the queue holds work for, with counts per priority', async () => {
    const { queues } = await handler().execute();

    expect(Object.keys(queues).sort()).toEqual(['1', '2', '7']);
    expect(queues[1]).toMatchObject({ high: { total: 1, due_now: 1 }, normal: { total: 3, due_now: 3 }, autorecache: { total: 1, due_now: 0 }, paused: false });
    expect(queues[2]).toEqual({ high: emptyQueue, normal: emptyQueue, autorecache: emptyQueue, paused: false, drain_estimate: { high: drained, normal: drained, autorecache: drained } });
    expect(queues[7]).toMatchObject({ normal: { total: 1, due_now: 1 } });
  });

  it('estimates each queue’s drain from its completions of the last ten minutes, plus what is left of a pause; no rate yet is null', async () => {
    // The scheduler pulls host 1's high entry, then a normal one of host 1 and of host 7 (round-robin); host 1's two are rendered.
    const claims = await state.queue.claim({ now: T, limit: 3, leaseMs: 60_000 });
    for (const claim of claims.filter((c) => c.hostId === 1)) await state.queue.complete(claim, T);
    let { queues } = await handler().execute();
    expect(queues[1].drain_estimate).toEqual({
      high: { seconds: 0, completed_per_minute: 0.1 },
      // Two left at one per ten minutes.
      normal: { seconds: 1_200, completed_per_minute: 0.1 },
      // Waiting with nothing completed: no rate to tell.
      autorecache: { seconds: null, completed_per_minute: 0 },
    });
    // Host 7's only entry is being rendered (out of its queue): a host no longer configured is shown only while it has queued work.
    expect(queues[7]).toBeUndefined();

    // Then host 1 paused for a minute.

    await state.queue.pause(1, T + 60_000);
    ({ queues } = await handler().execute());
    expect(queues[1]).toMatchObject({ paused: true, drain_estimate: { normal: { seconds: 1_260 } } });
  });

  it("reports the daemon (its id, uptime by the clock, the scheduler's last tick), its internal queue against max_size, and the render capacity", async () => {
    const status = handler();
    clock.advance(61_900);
    expect(await status.execute()).toMatchObject({
      daemon: { daemon_id: 'daemon-a', uptime_seconds: 61, last_tick: null },
      internal_queue: { size: 1, max_size: 3, capacity_used_percent: 33.33 },
      rs_capacity: { total_free_tabs: 3, reserved_for_online: 1, available_for_recache: 2, reservation_percent: 25 },
    });
    lastTick = new Date(T + 61_000);
    expect((await status.execute()).daemon.last_tick).toBe('2026-11-28T02:01:01.000Z');
  });

  it('answers STORE_UNAVAILABLE when the queue store cannot be read', async () => {
    await state.queue.close();
    await expect(handler().execute()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/^queue store unavailable: /) });
  });
});
