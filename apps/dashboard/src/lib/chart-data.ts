import type { Series } from '../api/types';

/**
 * The API's series (every bucket present, the same buckets in each series)
 * as uPlot's columns: x in Unix seconds, then one array of values per series.
 */
export function seriesToColumns(series: Series[]): (number | null)[][] {
  const first = series[0];
  if (!first) return [[]];
  const x = first.points.map((p) => Date.parse(p.t) / 1000);
  const columns: (number | null)[][] = [x];
  for (const s of series) {
    // The API gives every series the same buckets: index by index. Else match on time.
    if (s.points.length === x.length) {
      columns.push(s.points.map((p) => p.v));
      continue;
    }
    const byTime = new Map(s.points.map((p) => [Date.parse(p.t) / 1000, p.v]));
    columns.push(x.map((t) => byTime.get(t) ?? null));
  }
  return columns;
}

/** The change from `previous` to `current`: relative for counts, in points for ratios; undefined when it cannot be said. */
export function delta(current: number | null, previous: number | null, kind: 'count' | 'ratio'): number | undefined {
  if (current === null || previous === null) return undefined;
  if (kind === 'ratio') return current - previous;
  if (previous === 0) return undefined;
  return (current - previous) / previous;
}

/**
 * Indices of values with no value on either side: a line needs two points, so
 * uPlot draws nothing for them (one busy hour in a week of render times would
 * leave the chart empty). The chart marks them as dots.
 */
export function isolatedIndices(values: ArrayLike<number | null | undefined>): number[] {
  const present = (i: number) => i >= 0 && i < values.length && values[i] !== null && values[i] !== undefined;
  const isolated: number[] = [];
  for (let i = 0; i < values.length; i++) if (present(i) && !present(i - 1) && !present(i + 1)) isolated.push(i);
  return isolated;
}
