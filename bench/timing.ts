import { performance } from 'node:perf_hooks';
import { upperMedian } from './stats';

/** How long one call of `fn` takes, in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * The p50 (upper median) of `runs` timings of `measured` and of `baseline`, taken
 * interleaved (baseline first in each round) so both sides see the same cache and
 * machine state. Warm both up before calling.
 */
export async function interleavedP50(measured: () => Promise<unknown>, baseline: () => Promise<unknown>, runs: number): Promise<{ measuredMs: number; baselineMs: number }> {
  const measuredMs: number[] = [];
  const baselineMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    baselineMs.push(await timed(baseline));
    measuredMs.push(await timed(measured));
  }
  return { measuredMs: upperMedian(measuredMs), baselineMs: upperMedian(baselineMs) };
}
