import { validationError } from '@bpc/domain';

/** A calendar date (midnight UTC) or a full ISO timestamp with `Z` or an offset: never server-local time, never a rolled-over date. */
const LASTMOD_AFTER = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** `lastmodAfter` as epoch ms, or VALIDATION_FAILED naming it. */
export function parseLastmodAfter(value: string): number {
  const match = LASTMOD_AFTER.exec(value);
  const ms = match ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : Number.NaN;
  const [year, month, day] = match ? match.slice(1, 4).map(Number) : [];
  const date = new Date(Date.UTC(year, month - 1, day));
  const realDay = match !== null && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (Number.isNaN(ms) || !realDay) throw validationError('lastmodAfter', 'lastmodAfter must be YYYY-MM-DD or an ISO 8601 timestamp with Z or an offset');
  return ms;
}
