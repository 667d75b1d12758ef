import { parseLastmodAfter } from './parse-lastmod-after';

describe('parseLastmodAfter', () => {
  it('reads a date as midnight UTC and a timestamp with its zone', () => {
    expect(parseLastmodAfter('2024-05-01')).toBe(Date.parse('2024-05-01T00:00:00Z'));
    expect(parseLastmodAfter('2024-05-01T10:00:00+02:00')).toBe(Date.parse('2024-05-01T08:00:00Z'));
  });

  it.each(['2024-02-30', '2024-05-01T10:00:00', 'yesterday', '', '2024-5-1'])('refuses %j naming lastmodAfter', (value) => {
    expect(() => parseLastmodAfter(value)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'lastmodAfter' }));
  });
});
