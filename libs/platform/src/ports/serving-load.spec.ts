import { isSaturated, ServingLoad } from './serving-load';

describe('isSaturated', () => {
  it('holds when the serving loop has no time to spare, whatever the idle CPU', () => {
    expect(isSaturated({ cpuIdleShare: 0.5, loopUtilization: 0.9 })).toBe(true);
    expect(isSaturated({ cpuIdleShare: 0.27, loopUtilization: 0.99 })).toBe(true);
    expect(isSaturated({ cpuIdleShare: 0.5, loopUtilization: 0.89 })).toBe(false);
  });

  it('holds too with next to no idle CPU and a mostly busy serving loop', () => {
    expect(isSaturated({ cpuIdleShare: 0.05, loopUtilization: 0.85 })).toBe(true);
    expect(isSaturated({ cpuIdleShare: 0.25, loopUtilization: 0.6 })).toBe(true);
    // CPUs and serving time to spare: work beside serving takes nothing from it.
    expect(isSaturated({ cpuIdleShare: 0.26, loopUtilization: 0.85 })).toBe(false);
    expect(isSaturated({ cpuIdleShare: 0.5, loopUtilization: 0.5 })).toBe(false);
    // Busy CPUs, but the serving loop mostly waits: something else keeps them busy.
    expect(isSaturated({ cpuIdleShare: 0, loopUtilization: 0.3 })).toBe(false);
    expect(isSaturated({ cpuIdleShare: 0.05, loopUtilization: 0.59 })).toBe(false);
  });
});

describe('ServingLoad', () => {
  it('is never saturated while nothing serves, nor before a window was measured', () => {
    const load = new ServingLoad();
    expect(load.saturated()).toBe(false);
    const stop = load.serving();
    expect(load.saturated()).toBe(false);
    stop();
  });

  /** CPU times that advance by 100 ms a call, `idleShare` of it idle. */
  function cpuAt(idleShare: number) {
    let calls = 0;
    return () => {
      calls += 1;
      return { idle: calls * 100 * idleShare, total: calls * 100 };
    };
  }

  /** Keeps this thread's loop busy for `ms`, in slices, so that timers still run. */
  async function busyFor(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const slice = Date.now() + 40;
      while (Date.now() < slice);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** A load over CPUs `idleShare` idle, its server's loop kept busy for a second and more. */
  async function busyServing(idleShare: number): Promise<{ load: ServingLoad; stop: () => void }> {
    const load = new ServingLoad(cpuAt(idleShare));
    const stop = load.serving();
    await busyFor(1_100);
    return { load, stop };
  }

  it('is saturated when its loop was kept busy over the last second and the CPUs had no time to spare', async () => {
    const { load, stop } = await busyServing(0.05);
    expect(load.saturated()).toBe(true);
    stop();
    expect(load.saturated()).toBe(false);
  });

  it('is saturated when its loop had no time to spare, with CPU time to spare', async () => {
    const { load, stop } = await busyServing(0.5);
    expect(load.saturated()).toBe(true);
    stop();
  });

  it('is not saturated with CPU time to spare and a loop that waits a quarter of the time', async () => {
    const load = new ServingLoad(cpuAt(0.5));
    const stop = load.serving();
    // 60 ms busy, then at least 20 ms waiting: at most 75 % busy.
    for (const until = Date.now() + 1_100; Date.now() < until; ) {
      const slice = Date.now() + 60;
      while (Date.now() < slice);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(load.saturated()).toBe(false);
    stop();
  });

  it('is not saturated when its loop mostly waits, however busy the CPUs', async () => {
    const load = new ServingLoad(cpuAt(0));
    const stop = load.serving();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(load.saturated()).toBe(false);
    stop();
  });

  it('samples while any server serves: one stopping leaves the other measured', async () => {
    const load = new ServingLoad(cpuAt(0));
    const stopA = load.serving();
    const stopB = load.serving();
    stopA();
    stopA();
    await busyFor(1_100);
    expect(load.saturated()).toBe(true);
    stopB();
    expect(load.saturated()).toBe(false);
  });
});
