import { normaliseQueryParams, unixTimestampWithMillis } from './query-params';

describe('normaliseQueryParams', () => {
  it('sends Dates as Unix timestamps with milliseconds', () => {
    expect(normaliseQueryParams({ from: new Date('2024-01-02T03:04:05.678Z') })).toEqual({ from: '1704164645.678' });
  });

  it('converts Dates inside arrays and leaves other values alone', () => {
    const params = { days: [new Date('1970-01-01T00:00:01.000Z')], s: "x'y", n: 5, big: 2n ** 64n - 1n, none: null };
    expect(normaliseQueryParams(params)).toEqual({ days: ['1.000'], s: "x'y", n: 5, big: 2n ** 64n - 1n, none: null });
  });

  it('gives an empty object without params', () => {
    expect(normaliseQueryParams(undefined)).toEqual({});
  });
});

describe('unixTimestampWithMillis', () => {
  it('keeps the sign on the whole value before 1970', () => {
    expect(unixTimestampWithMillis(new Date(-1))).toBe('-0.001');
    expect(unixTimestampWithMillis(new Date(-1500))).toBe('-1.500');
  });

  it('refuses invalid Dates', () => {
    expect(() => unixTimestampWithMillis(new Date(NaN))).toThrow(RangeError);
  });
});
