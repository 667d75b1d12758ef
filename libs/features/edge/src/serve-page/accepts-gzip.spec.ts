import { acceptsGzip } from './accepts-gzip';

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*, gzip;q=0', false],
    ['br, *;q=0', false],
    ['identity, *;q=0.5', true],
    ['X-GZIP', true],
    ['br', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
