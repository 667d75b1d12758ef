import { parseW3cDate, UrlTally } from './tally-urls';

describe('UrlTally', () => {
  const hostnames = ['www.example.com', 'Example.com'];

  it('accepts on-host URLs normalised and counts every other entry once', () => {
    const tally = new UrlTally({ hostnames, maxUrls: 100 });
    tally.addFile(
      [
        { loc: 'https://WWW.example.com:443/a#top' },
        { loc: 'https://example.com/b' },
        { loc: 'https://www.example.com/a' },
        { loc: 'https://evil.example.net/x' },
        { loc: 'ftp://www.example.com/x' },
        { loc: 'not a url' },
        { loc: undefined },
      ],
      2,
    );
    expect(tally.accepted()).toEqual(['https://www.example.com/a', 'https://example.com/b']);
    expect(tally.skipped).toEqual({ offHost: 1, invalid: 3, overCap: 2, notModified: 0, duplicate: 1 });
    expect(tally.found).toBe(9);
  });

  it('keeps only entries modified after lastmodAfter; entries without a readable lastmod are taken', () => {
    const tally = new UrlTally({ hostnames, maxUrls: 100, lastmodAfter: Date.parse('2024-05-01T00:00:00Z') });
    tally.addFile(
      [
        { loc: 'https://example.com/old', lastmod: '2024-04-30' },
        { loc: 'https://example.com/same', lastmod: '2024-05-01' },
        { loc: 'https://example.com/new', lastmod: '2024-05-01T00:00:01+00:00' },
        { loc: 'https://example.com/zoned', lastmod: '2024-05-01T01:30:00+02:00' },
        { loc: 'https://example.com/none' },
        { loc: 'https://example.com/garbled', lastmod: 'yesterday' },
      ],
      0,
    );
    expect(tally.accepted()).toEqual(['https://example.com/new', 'https://example.com/none', 'https://example.com/garbled']);
    expect(tally.skipped.notModified).toBe(3);
  });

  it('counts URLs past the per-call cap, across files', () => {
    const tally = new UrlTally({ hostnames, maxUrls: 3 });
    tally.addFile([{ loc: 'https://example.com/1' }, { loc: 'https://example.com/2' }], 0);
    tally.addFile([{ loc: 'https://example.com/3' }, { loc: 'https://example.com/4' }, { loc: 'https://example.com/1' }], 0);
    expect(tally.accepted()).toHaveLength(3);
    expect(tally.skipped).toMatchObject({ overCap: 1, duplicate: 1 });
  });
});

describe('parseW3cDate', () => {
  it.each([
    ['2024', '2024-01-01T00:00:00Z'],
    ['2024-05', '2024-05-01T00:00:00Z'],
    ['2024-05-06', '2024-05-06T00:00:00Z'],
    ['2024-05-06T10:20+02:00', '2024-05-06T08:20:00Z'],
    ['2024-05-06T10:20:30.123456Z', '2024-05-06T10:20:30.123Z'],
    ['2024-05-06T10:20:30', '2024-05-06T10:20:30Z'],
  ])('%s', (text, iso) => expect(parseW3cDate(text)).toBe(Date.parse(iso)));

  it.each(['', 'yesterday', '2024-02-31', '2024-13-01', '24-05-06', '2024-05-06 10:20'])('refuses %j', (text) => expect(parseW3cDate(text)).toBeUndefined());
});
