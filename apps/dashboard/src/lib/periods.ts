/** Periods as the API spells them: presets (`24h`, `7d`…) or a custom `YYYY-MM-DD,YYYY-MM-DD` (both days included). */

export const OVERVIEW_PRESETS = ['24h', '7d', '30d', '90d'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function presetLabel(preset: string): string {
  const match = /^(\d+)([hd])$/.exec(preset);
  if (!match) return preset;
  const n = Number(match[1]);
  return match[2] === 'h' ? `Last ${n} hours` : `Last ${n} days`;
}

export function isCustomPeriod(period: string | undefined): boolean {
  return !!period && period.includes(',');
}

/** `2026-11-01,2026-11-07` -> {start, end}; bounds with a time keep their date part for the date inputs. */
export function splitCustom(period: string | undefined): { start: string; end: string } {
  if (!period || !period.includes(',')) return { start: '', end: '' };
  const [start, end] = period.split(',');
  return { start: (start ?? '').slice(0, 10), end: (end ?? '').slice(0, 10) };
}

/**
 * A custom period from two date inputs, or the reason it is not one yet
 * (plain words for the control). The API checks the rest (365 days at most).
 */
export function joinCustom(start: string, end: string): { period: string } | { problem: string } {
  if (!start || !end) return { problem: 'Choose the first and the last day.' };
  if (!DAY.test(start) || !DAY.test(end)) return { problem: 'Days are written YYYY-MM-DD.' };
  if (end < start) return { problem: 'The last day comes before the first.' };
  return { period: `${start},${end}` };
}

/** Whether the period's window is at most 7 days: the API then answers charts hour by hour, else day by day. */
export function isHourly(period: string): boolean {
  const preset = /^(\d+)([hd])$/.exec(period);
  if (preset) return preset[2] === 'h' ? Number(preset[1]) <= 168 : Number(preset[1]) <= 7;
  const { start, end } = splitCustom(period);
  if (!start || !end) return false;
  const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1;
  return days <= 7;
}
