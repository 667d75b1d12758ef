/** Numbers and times for people: the viewer's locale and time zone (Intl), UTC kept for the hover title. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const bytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'kilobyte', unitDisplay: 'short', maximumFractionDigits: 1 });
const megabytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'megabyte', unitDisplay: 'short', maximumFractionDigits: 1 });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A calendar day (`YYYY-MM-DD`, no zone): shown as that day, not shifted into the viewer's zone. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** The UTC form of an instant, for the title attribute. */
export function utcTitle(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`;
}

export function formatInteger(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : integer.format(value);
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : decimal.format(value);
}

/** A ratio 0..1 as a percentage. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : percent.format(value);
}

export function formatBytes(value: number): string {
  return value >= 1_000_000 ? megabytes.format(value / 1_000_000) : bytes.format(value / 1000);
}

export function formatMs(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${decimal.format(value)} ms`;
}

/** A duration for a chart's narrow axis: `850 ms`, `2.5 s`. */
export function formatDurationShort(ms: number): string {
  return ms < 1000 ? `${integer.format(ms)} ms` : `${decimal.format(Math.round(ms / 100) / 10)} s`;
}
