import type { TimeWindow } from '../periods/periods';
import type { Interval } from './insights-catalog';

const STEP_MS: Readonly<Record<Interval, number>> = { hour: 3_600_000, day: 86_400_000 };

export interface TimeseriesPoint {
  /** Bucket start, UTC ISO 8601. */
  readonly t: string;
  readonly v: number | null;
}

export interface TimeseriesSeries {
  readonly key: string;
  readonly points: TimeseriesPoint[];
}

/** One aggregated row from the engine: bucket start (epoch ms), series key, value. */
export interface BucketRow {
  readonly t: number;
  readonly k: string;
  readonly v: number | null;
}

/**
 * Bucket starts covering a window, in UTC: from the bucket holding its start
 * to the one holding its last instant. A rolling window (`7d` ends now) so
 * has a partial first and last bucket.
 */
export function bucketStarts(window: TimeWindow, interval: Interval): number[] {
  const step = STEP_MS[interval];
  const starts: number[] = [];
  for (let t = Math.floor(window.start.getTime() / step) * step; t < window.end.getTime(); t += step) starts.push(t);
  return starts;
}

/**
 * Every key of `keys` as a series with every bucket of `starts`; a bucket
 * without a row is `empty` (0 for counts, null for ratios and latencies).
 */
export function fillSeries(rows: readonly BucketRow[], keys: readonly string[], starts: readonly number[], empty: 0 | null): TimeseriesSeries[] {
  const byKey = new Map<string, Map<number, number | null>>(keys.map((k) => [k, new Map()]));
  for (const row of rows) byKey.get(row.k)?.set(Number(row.t), row.v === null ? null : Number(row.v));
  return keys.map((key) => {
    const values = byKey.get(key)!;
    return { key, points: starts.map((t) => ({ t: new Date(t).toISOString(), v: values.has(t) ? values.get(t)! : empty })) };
  });
}

/** Series keys of a split: the values found in either window, the one with the largest sum in the main window first, then by name. */
export function seriesKeys(main: readonly BucketRow[], comparison: readonly BucketRow[]): string[] {
  const weight = new Map<string, number>();
  for (const row of comparison) weight.set(row.k, weight.get(row.k) ?? 0);
  for (const row of main) weight.set(row.k, (weight.get(row.k) ?? 0) + Number(row.v ?? 0));
  return [...weight.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).map(([k]) => k);
}
