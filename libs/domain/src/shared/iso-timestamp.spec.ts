import { isoTimestamp } from './iso-timestamp';

describe('isoTimestamp', () => {
  it('is Date#toISOString, within a second, across seconds, days and years, and going back in time', () => {
    const times = [1_763_770_000_000, 1_763_770_000_001, 1_763_770_000_999, 1_763_770_001_000, 1_763_769_999_999, 1_767_225_599_999, 1_767_225_600_000, 0, 951_782_400_000];
    for (let ms = 1_763_770_000_000; ms < 1_763_770_000_000 + 5_000_000; ms += 997) times.push(ms);
    for (const ms of times) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
  });

  it('is Date#toISOString for fractional milliseconds and outside four-digit years, and throws as it does for invalid times', () => {
    for (const ms of [1.7, 1_763_770_000_000.9, 253_402_300_799_999, 253_402_300_800_000, -1, -62_198_755_200_001, 8.64e15]) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => isoTimestamp(8.64e15 + 1)).toThrow(RangeError);
  });
});
