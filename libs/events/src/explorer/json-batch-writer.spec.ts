import { JsonBatchWriter } from './json-batch-writer';

/** What `isoTimestamp` writes for each time, one writer for all (its second is kept between calls). */
function written(times: readonly number[]): string[] {
  const writer = new JsonBatchWriter(16);
  return times.map((ms) => {
    const start = writer.offset;
    writer.isoTimestamp(ms);
    return writer.out.subarray(start, writer.offset).toString('latin1');
  });
}

describe('JsonBatchWriter.isoTimestamp', () => {
  it('writes JSON.stringify(Date#toISOString), within a second, across seconds, days and years, and going back in time', () => {
    const times = [1_763_770_000_000, 1_763_770_000_001, 1_763_770_000_999, 1_763_770_001_000, 1_763_769_999_999, 1_767_225_599_999, 1_767_225_600_000, 0, 951_782_400_000];
    for (let ms = 1_763_770_000_000; ms < 1_763_770_000_000 + 5_000_000; ms += 997) times.push(ms);
    expect(written(times)).toEqual(times.map((ms) => JSON.stringify(new Date(ms).toISOString())));
  });

  it('matches for fractional milliseconds, negative times and years beyond four digits, and throws as toISOString does for invalid times', () => {
    const times = [1.7, -0.5, -0, 1_763_770_000_000.9, 253_402_300_799_999, 253_402_300_800_000, -1, -1_001, -62_198_755_200_001, 8.64e15, -8.64e15];
    expect(written(times)).toEqual(times.map((ms) => JSON.stringify(new Date(ms).toISOString())));
    for (const ms of [Number.NaN, 8.64e15 + 1, -8.64e15 - 1, Number.POSITIVE_INFINITY]) expect(() => written([ms])).toThrow(RangeError);
  });
});
