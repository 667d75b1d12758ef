import { parseExpiry } from './parse-expiry';

const now = Date.parse('2026-11-21T00:00:00Z');

describe('token expiry', () => {
  it('takes a calendar date as midnight UTC and a timestamp with its offset', () => {
    expect(parseExpiry('2027-01-01', now)).toBe('2027-01-01T00:00:00.000Z');
    expect(parseExpiry('2027-01-01T10:00:00+02:00', now)).toBe('2027-01-01T08:00:00.000Z');
    expect(parseExpiry('2027-01-01T10:00Z', now)).toBe('2027-01-01T10:00:00.000Z');
  });

  it.each(['2027-01-01T10:00', '2027-02-30', 'January 1, 2027', '2027-1-1', ''])('refuses %j (local time, impossible dates, free text)', (value) => {
    expect(() => parseExpiry(value, now)).toThrow(/expiresAt must be YYYY-MM-DD or an ISO 8601 timestamp/);
  });

  it('refuses a past expiry', () => {
    expect(() => parseExpiry('2026-01-01', now)).toThrow(/must be in the future/);
  });
});
