import { describe, expect, it } from 'vitest';
import { isCustomPeriod, isHourly, joinCustom, presetLabel, splitCustom } from './periods';
import { linkFromHash, safeNextPath, signInPath } from './next-path';
import { parseUrlList } from './url-list';
import { delta, isolatedIndices, seriesToColumns } from './chart-data';

describe('periods', () => {
  it('names presets in words', () => {
    expect(presetLabel('24h')).toBe('Last 24 hours');
    expect(presetLabel('90d')).toBe('Last 90 days');
    expect(presetLabel('odd')).toBe('odd');
  });

  it('splits and joins custom ranges of whole days', () => {
    expect(isCustomPeriod('2026-11-01,2026-11-07')).toBe(true);
    expect(isCustomPeriod('7d')).toBe(false);
    expect(splitCustom('2026-11-01T10:00Z,2026-11-07')).toEqual({ start: '2026-11-01', end: '2026-11-07' });
    expect(joinCustom('2026-11-01', '2026-11-07')).toEqual({ period: '2026-11-01,2026-11-07' });
    expect(joinCustom('2026-11-07', '2026-11-01')).toEqual({ problem: 'The last day comes before the first.' });
    expect(joinCustom('', '2026-11-01')).toEqual({ problem: 'Choose the first and the last day.' });
  });

  it('says when charts come hour by hour (7 days at most)', () => {
    expect(isHourly('24h')).toBe(true);
    expect(isHourly('7d')).toBe(true);
    expect(isHourly('30d')).toBe(false);
    expect(isHourly('2026-11-01,2026-11-07')).toBe(true);
    expect(isHourly('2026-11-01,2026-11-08')).toBe(false);
  });
});

describe('sign-in redirects', () => {
  it('goes back to a path of the dashboard only', () => {
    expect(safeNextPath('/w/demo/explorer?mode=comparison')).toBe('/w/demo/explorer?mode=comparison');
    expect(safeNextPath('//evil.example/')).toBeUndefined();
    expect(safeNextPath('https://evil.example/')).toBeUndefined();
    expect(safeNextPath('/\\evil.example')).toBeUndefined();
    expect(safeNextPath('/sign-in?next=/x')).toBeUndefined();
    // Tabs and newlines are dropped by URL parsers, `\` reads as `/`: each of these is `//evil.example`.
    expect(safeNextPath('/\t/evil.example/')).toBeUndefined();
    expect(safeNextPath('/\n/evil.example/')).toBeUndefined();
    expect(safeNextPath('/\r\\evil.example/')).toBeUndefined();
    expect(safeNextPath('/w/demo/explorer?f=%5B%22page%22%5D')).toBe('/w/demo/explorer?f=%5B%22page%22%5D');
    expect(signInPath('/w/demo?period=7d')).toBe('/sign-in?next=%2Fw%2Fdemo%3Fperiod%3D7d');
    expect(signInPath('/')).toBe('/sign-in');
  });

  it('reads the secret of a sign-in link', () => {
    expect(linkFromHash('#link=abc_123')).toBe('abc_123');
    expect(linkFromHash('')).toBeUndefined();
    expect(linkFromHash('#other=1')).toBeUndefined();
  });
});

describe('URL lists and chart data', () => {
  it('finds the values a line cannot draw: alone between gaps', () => {
    expect(isolatedIndices([null, 900, null, null, 5, 6, null, 7])).toEqual([1, 7]);
    expect(isolatedIndices([null, null])).toEqual([]);
  });

  it('keeps each URL with its line, skipping blanks and comments', () => {
    expect(parseUrlList('https://a.example/1\r\n\n  # note\n https://a.example/2 ')).toEqual([
      { url: 'https://a.example/1', line: 1 },
      { url: 'https://a.example/2', line: 4 },
    ]);
  });

  it('turns series into uPlot columns on the first series buckets', () => {
    const t0 = '2026-11-01T00:00:00.000Z';
    const t1 = '2026-11-01T01:00:00.000Z';
    expect(seriesToColumns([{ key: 'a', points: [{ t: t0, v: 1 }, { t: t1, v: null }] }, { key: 'b', points: [{ t: t1, v: 5 }] }])).toEqual([
      [Date.parse(t0) / 1000, Date.parse(t1) / 1000],
      [1, null],
      [null, 5],
    ]);
    expect(seriesToColumns([])).toEqual([[]]);
  });

  it('computes deltas: relative for counts, points for ratios', () => {
    expect(delta(110, 100, 'count')).toBeCloseTo(0.1);
    expect(delta(5, 0, 'count')).toBeUndefined();
    expect(delta(0.8, 0.85, 'ratio')).toBeCloseTo(-0.05);
    expect(delta(null, 1, 'ratio')).toBeUndefined();
  });
});
