import { validationError } from '@bpc/domain';
import type { PeriodRules } from '../catalog/explorer-catalog';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A half-open UTC span [start, end). */
export interface TimeWindow {
  readonly start: Date;
  readonly end: Date;
}

const PRESET = /^(\d{1,4})(h|d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?Z?$/;

/**
 * Resolves `period` (or `compPeriod` with `dateOnly`) against the clock.
 * - Sub-day data (timeBounds): presets are rolling, `Nh`/`Nd` before now.
 * - Whole-day data, and date-only periods (`compPeriod`): `Nd` is the N
 *   complete UTC days before today; sub-day presets are refused.
 * - Custom `start,end` is inclusive of both days: [start 00:00, end+1 00:00);
 *   with a time of day (timeBounds only) the instants are exact and end is exclusive.
 * The span must be non-empty and at most `maxRangeDays`.
 */
export function resolvePeriod(value: string, rules: PeriodRules, nowMs: number, field: string, dateOnly = false): TimeWindow {
  const preset = PRESET.exec(value);
  if (preset) {
    if (!rules.presets.includes(value)) {
      const subDay = preset[2] === 'h';
      throw validationError(
        field,
        subDay && !rules.timeBounds
          ? `${field} ${value} is a sub-day preset; this explorer's data is whole-day (presets: ${rules.presets.join(', ')})`
          : `${field} must be one of ${rules.presets.join(', ')} or a range YYYY-MM-DD,YYYY-MM-DD`,
      );
    }
    const n = Number(preset[1]);
    // A date-only period (compPeriod) is whole days: no sub-day preset, and day presets end at midnight.
    if (preset[2] === 'h' && dateOnly) throw validationError(field, `${field} takes whole days: ${value} is a sub-day preset`);
    if (preset[2] === 'h') return { start: new Date(nowMs - n * HOUR_MS), end: new Date(nowMs) };
    if (rules.timeBounds && !dateOnly) return { start: new Date(nowMs - n * DAY_MS), end: new Date(nowMs) };
    const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
    return { start: new Date(today - n * DAY_MS), end: new Date(today) };
  }
  const parts = value.split(',');
  if (parts.length !== 2) throw validationError(field, `${field} must be a preset (${rules.presets.join(', ')}) or a range YYYY-MM-DD,YYYY-MM-DD`);
  const allowTime = rules.timeBounds && !dateOnly;
  const start = parseBound(parts[0].trim(), 'start', allowTime, field);
  const end = parseBound(parts[1].trim(), 'end', allowTime, field);
  if (end <= start) throw validationError(field, `${field} must end after it starts`);
  if (end - start > rules.maxRangeDays * DAY_MS) throw validationError(field, `${field} spans more than ${rules.maxRangeDays} days`);
  return { start: new Date(start), end: new Date(end) };
}

function parseBound(text: string, side: 'start' | 'end', allowTime: boolean, field: string): number {
  const date = DATE.exec(text);
  if (date) {
    const ms = utc(Number(date[1]), Number(date[2]), Number(date[3]), 0, 0, 0);
    if (ms === undefined) throw validationError(field, `${field} holds an invalid date ${text}`);
    return side === 'end' ? ms + DAY_MS : ms;
  }
  const dateTime = DATE_TIME.exec(text);
  if (dateTime) {
    if (!allowTime) throw validationError(field, `${field} takes dates only (YYYY-MM-DD,YYYY-MM-DD), no time of day`);
    const ms = utc(Number(dateTime[1]), Number(dateTime[2]), Number(dateTime[3]), Number(dateTime[4]), Number(dateTime[5]), Number(dateTime[6] ?? 0));
    if (ms === undefined) throw validationError(field, `${field} holds an invalid date and time ${text}`);
    return ms;
  }
  throw validationError(field, `${field} must be a preset or a range YYYY-MM-DD,YYYY-MM-DD${allowTime ? ' (a time of day YYYY-MM-DDTHH:mm is allowed)' : ''}`);
}

/** Epoch ms of a real calendar instant, or undefined for 2026-02-30 and friends. */
function utc(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  if (y < 1970 || y > 2105 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(ms);
  return check.getUTCFullYear() === y && check.getUTCMonth() === mo - 1 && check.getUTCDate() === d ? ms : undefined;
}

/** The equal-length window immediately before `main`: the default comparison window. */
export function previousWindow(main: TimeWindow): TimeWindow {
  const length = main.end.getTime() - main.start.getTime();
  return { start: new Date(main.start.getTime() - length), end: new Date(main.start) };
}

/** A window as a period string: dates when it is whole days, exact instants otherwise. */
export function describeWindow(window: TimeWindow): string {
  const wholeDays = window.start.getTime() % DAY_MS === 0 && window.end.getTime() % DAY_MS === 0;
  if (wholeDays) return `${isoDate(window.start.getTime())},${isoDate(window.end.getTime() - DAY_MS)}`;
  return `${window.start.toISOString()},${window.end.toISOString()}`;
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
