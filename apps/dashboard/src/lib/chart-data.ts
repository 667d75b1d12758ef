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
