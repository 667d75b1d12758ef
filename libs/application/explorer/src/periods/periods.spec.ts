import { AppError } from '@bpc/domain';
import { findExplorer } from '../catalog/explorer-catalog';
import { describeWindow, previousWindow, resolvePeriod } from './periods';

const events = findExplorer('events')!.periods;
const search = findExplorer('search-pages')!.periods;
const now = Date.parse('2026-11-21T13:45:10.123Z');
const iso = (w: { start: Date; end: Date }) => [w.start.toISOString(), w.end.toISOString()];

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError && error.code === 'VALIDATION_FAILED' ? error.field : 'not a validation error';
  }
  return undefined;
}

describe('periods', () => {
  it('rolls sub-day presets back from now on events', () => {
    expect(iso(resolvePeriod('24h', events, now, 'period'))).toEqual(['2026-11-20T13:45:10.123Z', '2026-11-21T13:45:10.123Z']);
    expect(iso(resolvePeriod('30d', events, now, 'period'))).toEqual(['2026-10-22T13:45:10.123Z', '2026-11-21T13:45:10.123Z']);
  });

  it('takes N whole days before today on whole-day explorers and refuses 24h there', () => {
    expect(iso(resolvePeriod('7d', search, now, 'period'))).toEqual(['2026-11-14T00:00:00.000Z', '2026-11-21T00:00:00.000Z']);
    expect(fieldOf(() => resolvePeriod('24h', search, now, 'period'))).toBe('period');
  });

  it('reads custom ranges inclusive of both days, with a time of day only where timeBounds', () => {
    expect(iso(resolvePeriod('2026-01-01,2026-01-31', search, now, 'period'))).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);
    expect(iso(resolvePeriod('2026-01-01T10:30,2026-01-02T08:00', events, now, 'period'))).toEqual(['2026-01-01T10:30:00.000Z', '2026-01-02T08:00:00.000Z']);
    expect(fieldOf(() => resolvePeriod('2026-01-01T10:30,2026-01-02', search, now, 'period'))).toBe('period');
    expect(fieldOf(() => resolvePeriod('2026-01-01T10:30,2026-01-02', events, now, 'compPeriod', true))).toBe('compPeriod');
  });

  it.each(['', '7', '7w', '1d', '2026-01-01', '2026-01-31,2026-01-01', '2026-02-29,2026-03-01', '2026-13-01,2026-13-02', '2025-01-01,2026-01-02', 'a,b,c', '2026-01-01 ,, 2026-01-02'])(
    'refuses %j',
    (value) => {
      expect(fieldOf(() => resolvePeriod(value, events, now, 'period'))).toBe('period');
    },
  );

  it('reads presets as whole days in a date-only period (compPeriod) and refuses 24h there', () => {
    expect(iso(resolvePeriod('7d', events, now, 'compPeriod', true))).toEqual(['2026-11-14T00:00:00.000Z', '2026-11-21T00:00:00.000Z']);
    expect(fieldOf(() => resolvePeriod('24h', events, now, 'compPeriod', true))).toBe('compPeriod');
  });

  it('accepts exactly 365 days and a leap day', () => {
    expect(fieldOf(() => resolvePeriod('2025-01-01,2025-12-31', events, now, 'period'))).toBeUndefined();
    expect(fieldOf(() => resolvePeriod('2028-02-29,2028-03-01', events, now, 'period'))).toBeUndefined();
  });

  it('defaults the comparison window to the equal-length span just before', () => {
    const main = resolvePeriod('2026-02-01,2026-02-28', search, now, 'period');
    const previous = previousWindow(main);
    expect(iso(previous)).toEqual(['2026-01-04T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);
    expect(describeWindow(previous)).toBe('2026-01-04,2026-01-31');
    expect(describeWindow(resolvePeriod('24h', events, now, 'period'))).toBe('2026-11-20T13:45:10.123Z,2026-11-21T13:45:10.123Z');
  });
});
