/** Latest time `Date` writes with a four-digit year (9999-12-31T23:59:59.999Z). */
const FOUR_DIGIT_YEARS_END = 253_402_300_800_000;
/** `000Z` … `999Z`: the end of a timestamp after its second. */
const MILLIS = Array.from({ length: 1_000 }, (_, ms) => `${String(ms).padStart(3, '0')}Z`);

let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `new Date(ms).toISOString()`, about ten times cheaper when called many times
 * a second (the edge stamps every request it serves): the text up to the
 * second is kept from the previous call, and only the milliseconds are added.
 */
export function isoTimestamp(ms: number): string {
  if (!(ms >= 0 && ms < FOUR_DIGIT_YEARS_END)) return new Date(ms).toISOString();
  const whole = Math.floor(ms);
  const second = Math.floor(whole / 1_000);
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1_000).toISOString().slice(0, 20);
    cachedSecond = second;
  }
  return cachedPrefix + MILLIS[whole - second * 1_000];
}
