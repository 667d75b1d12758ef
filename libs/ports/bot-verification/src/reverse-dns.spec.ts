import { confirmsAddress, isUnderDomains, reverseLookupName, verificationOfLookupError } from './reverse-dns';

describe('isUnderDomains', () => {
  const google = ['googlebot.com', 'google.com', 'googleusercontent.com'];
  it.each([
    ['crawl-66-249-66-1.googlebot.com', true],
    ['rate-limited-proxy-66-249-90-77.google.com.', true],
    ['GOOGLEBOT.COM', true],
    ['evilgooglebot.com', false],
    ['googlebot.com.evil.example', false],
    ['crawl.googlebot.co', false],
    ['', false],
  ])('%s → %s', (name, under) => {
    expect(isUnderDomains(name, google)).toBe(under);
  });
});

describe('verificationOfLookupError', () => {
  it.each([
    ['ENOTFOUND', 'no'],
    ['ENODATA', 'no'],
    ['ETIMEOUT', 'unknown'],
    ['ESERVFAIL', 'unknown'],
    ['ECONNREFUSED', 'unknown'],
    [undefined, 'unknown'],
  ])('%s → %s', (code, verification) => {
    expect(verificationOfLookupError(Object.assign(new Error('lookup failed'), { code }))).toBe(verification);
  });
});

describe('confirmsAddress', () => {
  it('compares addresses, not strings', () => {
    expect(confirmsAddress('2001:db8::1', ['2001:0db8:0000::0001'])).toBe(true);
    expect(confirmsAddress('::ffff:192.0.2.1', ['192.0.2.1'])).toBe(true);
    expect(confirmsAddress('192.0.2.1', ['192.0.2.2', 'garbage'])).toBe(false);
    expect(confirmsAddress('192.0.2.1', [])).toBe(false);
  });
});

describe('reverseLookupName', () => {
  it.each([
    ['66.249.66.1', '1.66.249.66.in-addr.arpa'],
    ['::ffff:66.249.66.1', '1.66.249.66.in-addr.arpa'],
    ['2001:db8::1', '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa'],
  ])('%s → %s', (ip, name) => {
    expect(reverseLookupName(ip)).toBe(name);
  });
});
