import { bucketStarts, fillSeries, seriesKeys } from './timeseries-series';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('bucketStarts', () => {
  it('covers a rolling window from the bucket holding its start to the one holding its last instant', () => {
    const window = { start: new Date(Date.UTC(2026, 10, 19, 15, 30)), end: new Date(Date.UTC(2026, 10, 20, 15, 30)) };
    const hours = bucketStarts(window, 'hour');
    expect(hours).toHaveLength(25);
    expect(new Date(hours[0]).toISOString()).toBe('2026-11-19T15:00:00.000Z');
    expect(new Date(hours[24]).toISOString()).toBe('2026-11-20T15:00:00.000Z');
    expect(bucketStarts(window, 'day').map((t) => new Date(t).toISOString())).toEqual(['2026-11-19T00:00:00.000Z', '2026-11-20T00:00:00.000Z']);
  });

  it('has exactly one bucket per whole day or hour of an aligned window', () => {
    expect(bucketStarts({ start: new Date(Date.UTC(2026, 0, 1)), end: new Date(Date.UTC(2026, 0, 31)) }, 'day')).toHaveLength(30);
    expect(bucketStarts({ start: new Date(Date.UTC(2026, 0, 1)), end: new Date(Date.UTC(2026, 0, 2)) }, 'hour')).toHaveLength(24);
  });
});

describe('fillSeries and seriesKeys', () => {
  const starts = [0, DAY, 2 * DAY];

  it('gives every key every bucket: 0 for counts, null for ratios', () => {
    const rows = [{ t: DAY, k: 'Googlebot', v: 5 }];
    expect(fillSeries(rows, ['Googlebot', 'Bingbot'], starts, 0)).toEqual([
      { key: 'Googlebot', points: [{ t: '1970-01-01T00:00:00.000Z', v: 0 }, { t: '1970-01-02T00:00:00.000Z', v: 5 }, { t: '1970-01-03T00:00:00.000Z', v: 0 }] },
      { key: 'Bingbot', points: [{ t: '1970-01-01T00:00:00.000Z', v: 0 }, { t: '1970-01-02T00:00:00.000Z', v: 0 }, { t: '1970-01-03T00:00:00.000Z', v: 0 }] },
    ]);
    expect(fillSeries([{ t: 0, k: 'all', v: 0.5 }], ['all'], starts, null)[0].points.map((p) => p.v)).toEqual([0.5, null, null]);
  });

  it('orders keys by their sum in the main window, largest first, then by name; keys seen only in the comparison come last', () => {
    const main = [{ t: 0, k: 'b', v: 1 }, { t: 0, k: 'a', v: 4 }, { t: DAY, k: 'b', v: 3 }, { t: 0, k: 'c', v: 1 }];
    expect(seriesKeys(main, [{ t: 0, k: 'z', v: 9 }, { t: 0, k: 'a', v: 1 }])).toEqual(['a', 'b', 'c', 'z']);
  });
});
