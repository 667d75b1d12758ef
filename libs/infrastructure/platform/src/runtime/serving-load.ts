import { cpus } from 'node:os';
import { EventLoopUtilization, performance } from 'node:perf_hooks';

/** Token of the process's `ServingLoad`. */
export const SERVING_LOAD = Symbol('SERVING_LOAD');

/** The machine's CPU time and this thread's event loop, over one window. */
export interface LoadWindow {
  /** Share of every CPU's time spent idle. */
  readonly cpuIdleShare: number;
  /** Share of the time this thread's event loop was not waiting for work. */
  readonly loopUtilization: number;
}

/**
 * At most this share of CPU time idle: the machine has no core to spare.
 * Saturated serving measured 4–11 % idle on one host and 10–17 % on a
 * slower one (the load generator's thread waits more there); a fixed rate
 * of 40 % of the maximum leaves about 50 % idle.
 */
const MAX_IDLE_SHARE = 0.25;
/** At least this share of the serving thread's time busy: the server, not something else, is what keeps the CPUs busy. */
const MIN_LOOP_UTILIZATION = 0.6;
/**
 * At least this share of the serving thread's time busy: it has no time to
 * spare, whatever the CPUs' idle time. Saturated serving kept it 98–100 %
 * busy with 24–28 % of the CPU idle (a load generator that needs little
 * CPU, or none on this machine, leaves a core idle); a fixed rate of 40 % of
 * the maximum keeps it about half busy.
 */
const SATURATED_LOOP_UTILIZATION = 0.9;

/**
 * Serving is saturated when its thread's loop has no time to spare (work on
 * that thread, such as the explorer projection's reading and copying, comes
 * out of serving), or when the CPUs have next to no idle time and the
 * serving thread's loop is mostly busy (work beside serving then takes its
 * time from serving, whatever its thread priority: it shares the caches and
 * memory bandwidth too). With time to spare on both, it takes nothing.
 */
export function isSaturated(window: LoadWindow): boolean {
  if (window.loopUtilization >= SATURATED_LOOP_UTILIZATION) return true;
  return window.cpuIdleShare <= MAX_IDLE_SHARE && window.loopUtilization >= MIN_LOOP_UTILIZATION;
}

/** Windows are measured between samples this far apart... */
const SAMPLE_MS = 250;
/** ...over the last this many intervals (1 s): a load generator's bursts average out, and a pause ends within a second of the load. */
const WINDOW_SAMPLES = 4;

/** CPU time since boot, summed over every CPU, in ms. */
export interface CpuTimes {
  readonly idle: number;
  readonly total: number;
}

function machineCpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

interface Sample {
  readonly cpu: CpuTimes;
  readonly loop: EventLoopUtilization;
}

/**
 * How busy serving is in this process, for work beside it that should give
 * way while it is saturated (the explorer projection in standalone mode). A
 * server announces itself with `serving`, on the thread it serves from (the
 * loop measured is the caller's); without one, nothing is ever saturated, and
 * nothing is sampled.
 */
export class ServingLoad {
  private readonly samples: Sample[] = [];
  private servers = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly cpuTimes: () => CpuTimes = machineCpuTimes) {}

  /** A server serves here from now until the returned function is called. */
  serving(): () => void {
    this.servers += 1;
    if (this.servers === 1) {
      this.takeSample();
      this.timer = setInterval(() => this.takeSample(), SAMPLE_MS).unref();
    }
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      this.servers -= 1;
      if (this.servers > 0) return;
      clearInterval(this.timer);
      this.samples.length = 0;
    };
  }

  /** The last window (up to a second) was saturated (see `isSaturated`); false before there is one. */
  saturated(): boolean {
    if (this.samples.length < 2) return false;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const total = last.cpu.total - first.cpu.total;
    const loop = performance.eventLoopUtilization(last.loop, first.loop);
    return total > 0 && isSaturated({ cpuIdleShare: (last.cpu.idle - first.cpu.idle) / total, loopUtilization: loop.utilization });
  }

  private takeSample(): void {
    this.samples.push({ cpu: this.cpuTimes(), loop: performance.eventLoopUtilization() });
    if (this.samples.length > WINDOW_SAMPLES + 1) this.samples.shift();
  }
}
