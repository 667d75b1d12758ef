import type { QueryParams } from './explorer-store.port';

/**
 * Gives both adapters the same wire values: a `Date` becomes a Unix timestamp
 * with milliseconds, which ClickHouse reads time-zone agnostically into
 * DateTime/DateTime64 parameters. (chDB's own binder drops the milliseconds;
 * clickhouse-js already sends this form.)
 */
export function normaliseQueryParams(params: QueryParams | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!params) return out;
  for (const [name, value] of Object.entries(params)) out[name] = normaliseValue(value);
  return out;
}

function normaliseValue(value: unknown): unknown {
  if (value instanceof Date) return unixTimestampWithMillis(value);
  if (Array.isArray(value)) return value.map(normaliseValue);
  return value;
}

export function unixTimestampWithMillis(date: Date): string {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError('invalid Date in query parameters');
  // Sign and magnitude separately: -0.001 s must not read as -1 + 0.999.
  const abs = Math.abs(ms);
  return `${ms < 0 ? '-' : ''}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, '0')}`;
}
