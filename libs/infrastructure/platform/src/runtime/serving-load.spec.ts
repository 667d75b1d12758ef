import { until } from '@bpc/testing';
import { CpuTimes, isSaturated, ServingLoad } from './serving-load';

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

  /** Samples in a full window: one every 250 ms over the last second (ServingLoad's SAMPLE_MS and WINDOW_SAMPLES). */
  const FULL_WINDOW = 5;

  /**
   * CPU times that advance by 100 ms a sample, `idleShare` of it idle. The
   * samples taken count the load's ticks: the test waits for a full window
   * of them instead of for a second of wall-clock time.
   */
  function cpuAt(idleShare: number): { times: () => CpuTimes; samples: () => number } {
    let calls = 0;
    return {
      times: () => {
        calls += 1;
        return { idle: calls * 100 * idleShare, total: calls * 100 };
      },
      samples: () => calls,
    };
  }

  /** Keeps this thread's loop busy, in slices so that timers still run, until `done`. */
  async function busyUntil(done: () => boolean): Promise<void> {
    while (!done()) {
      const slice = Date.now() + 40;
      while (Date.now() < slice);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** A load over CPUs `idleShare` idle, its server's loop kept busy for a full window. */
  async function busyServing(idleShare: number): Promise<{ load: ServingLoad; stop: () => void }> {
    const cpu = cpuAt(idleShare);
    const load = new ServingLoad(cpu.times);
    const stop = load.serving();
    await busyUntil(() => cpu.samples() >= FULL_WINDOW);
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
    const cpu = cpuAt(0.5);
    const load = new ServingLoad(cpu.times);
    const stop = load.serving();
    // 60 ms busy, then at least 20 ms waiting (the waiting is what is measured): at most 75 % busy.
    while (cpu.samples() < FULL_WINDOW) {
      const slice = Date.now() + 60;
      while (Date.now() < slice);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(load.saturated()).toBe(false);
    stop();
  });

  it('is not saturated when its loop mostly waits, however busy the CPUs', async () => {
    const cpu = cpuAt(0);
    const load = new ServingLoad(cpu.times);
    const stop = load.serving();
    await until(() => cpu.samples() >= FULL_WINDOW, { intervalMs: 100 });
    expect(load.saturated()).toBe(false);
    stop();
  });

  it('samples while any server serves: one stopping leaves the other measured', async () => {
    const cpu = cpuAt(0);
    const load = new ServingLoad(cpu.times);
    const stopA = load.serving();
    const stopB = load.serving();
    stopA();
    stopA();
    await busyUntil(() => cpu.samples() >= FULL_WINDOW);
    expect(load.saturated()).toBe(true);
    stopB();
    expect(load.saturated()).toBe(false);
  });
});
