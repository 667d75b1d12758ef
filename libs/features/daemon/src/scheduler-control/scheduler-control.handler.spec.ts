import { SCHEDULER_PAUSED, SCHEDULER_RESUMED, TOPICS } from '@bpc/events';
import { capturedLogger, messagesWith, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { SetSchedulerPaused } from './scheduler-control.commands';
import { SetSchedulerPausedHandler } from './scheduler-control.handler';
import { SchedulerSwitch } from './scheduler-switch';

const T = Date.parse('2026-11-28T02:00:00Z');

describe('SetSchedulerPaused', () => {
  let state: StandaloneState;
  let schedulerSwitch: SchedulerSwitch;
  let captured: ReturnType<typeof capturedLogger>;

  async function handlerWith(enabled: boolean): Promise<SetSchedulerPausedHandler> {
    state = await openStandaloneState({ scheduler_control_api: enabled });
    schedulerSwitch = new SchedulerSwitch();
    captured = capturedLogger('error');
    return new SetSchedulerPausedHandler(state.config, state.log, new TestClock(T), 'daemon-a', schedulerSwitch, captured.logger);
  }

  afterEach(() => state.close());

  const toggles = async () => (await state.recorded(TOPICS.queue)).filter((e) => e.type === SCHEDULER_PAUSED || e.type === SCHEDULER_RESUMED);

  it('refuses with FEATURE_DISABLED while scheduler_control_api is off: the scheduler runs on and nothing is recorded', async () => {
    const handler = await handlerWith(false);
    await expect(handler.execute(new SetSchedulerPaused(true))).rejects.toMatchObject({ code: 'FEATURE_DISABLED', message: expect.stringMatching(/scheduler_control_api: false/) });
    expect(schedulerSwitch.isPaused()).toBe(false);
    expect(await toggles()).toEqual([]);
  });

  it("stops this daemon's scheduler and records SchedulerPaused with the daemon's id, keyed scheduler; resuming records SchedulerResumed", async () => {
    const handler = await handlerWith(true);

    expect(await handler.execute(new SetSchedulerPaused(true))).toEqual({ message: 'Scheduler paused' });
    expect(schedulerSwitch.isPaused()).toBe(true);
    expect(await handler.execute(new SetSchedulerPaused(false))).toEqual({ message: 'Scheduler resumed' });
    expect(schedulerSwitch.isPaused()).toBe(false);

    expect((await toggles()).map(({ type, key, occurredAt, payload }) => ({ type, key, occurredAt, payload }))).toEqual([
      { type: SCHEDULER_PAUSED, key: 'scheduler', occurredAt: new Date(T).toISOString(), payload: { daemonId: 'daemon-a' } },
      { type: SCHEDULER_RESUMED, key: 'scheduler', occurredAt: new Date(T).toISOString(), payload: { daemonId: 'daemon-a' } },
    ]);
  });

  it('pauses all the same when the event log refuses the event (an emergency stop must work with the log down), and logs that it was not recorded', async () => {
    const handler = await handlerWith(true);
    await state.closeLog();

    expect(await handler.execute(new SetSchedulerPaused(true))).toEqual({ message: 'Scheduler paused' });
    expect(schedulerSwitch.isPaused()).toBe(true);
    expect(messagesWith(captured.lines, 'scheduler switch event not recorded')).toHaveLength(1);
    expect(captured.lines[0]).toMatchObject({ type: SCHEDULER_PAUSED });
    expect(await toggles()).toEqual([]);
  });
});
