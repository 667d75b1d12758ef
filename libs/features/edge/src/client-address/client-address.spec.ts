import { ClientAddresses, MAX_FORWARDED_HOPS } from './client-address';

describe('ClientAddresses: the bot address believed from X-Forwarded-For', () => {
  const behindMiddleware = new ClientAddresses(['10.0.0.0/8', '2001:db8:aaaa::/48']);

  it('takes the entry the trusted peer appended (the rightmost), never what the client wrote left of it', () => {
    expect(behindMiddleware.of('10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
    expect(behindMiddleware.of('10.1.2.3', '66.249.66.1, 203.0.113.9')).toBe('203.0.113.9');
    expect(behindMiddleware.of('10.1.2.3', '1.1.1.1,2.2.2.2 ,  203.0.113.9  ')).toBe('203.0.113.9');
  });

  it('walks over hops that are trusted proxies too (a load balancer in front of the middleware)', () => {
    expect(behindMiddleware.of('10.1.2.3', '66.249.66.1, 203.0.113.9, 10.9.9.9, 10.8.8.8')).toBe('203.0.113.9');
    expect(behindMiddleware.of('2001:db8:aaaa::5', '203.0.113.9, 2001:db8:aaaa::6')).toBe('203.0.113.9');
  });

  it('believes nothing from a peer that is not a trusted proxy: a forged header changes nothing', () => {
    expect(behindMiddleware.of('198.51.100.7', '66.249.66.1')).toBeUndefined();
    expect(behindMiddleware.of('198.51.100.7', undefined)).toBeUndefined();
    expect(new ClientAddresses([]).of('10.1.2.3', '66.249.66.1')).toBeUndefined();
    expect(new ClientAddresses([]).of('66.249.66.1', undefined)).toBeUndefined();
  });

  it('has no address when a trusted peer sent no header, or only trusted hops', () => {
    expect(behindMiddleware.of('10.1.2.3', undefined)).toBeUndefined();
    expect(behindMiddleware.of('10.1.2.3', '')).toBeUndefined();
    expect(behindMiddleware.of('10.1.2.3', '10.4.4.4, 10.5.5.5')).toBeUndefined();
    expect(behindMiddleware.of(undefined, '203.0.113.9')).toBeUndefined();
  });

  it('reads IPv6, IPv4-mapped addresses and ports as proxies write them', () => {
    expect(behindMiddleware.of('::ffff:10.1.2.3', '2001:db8:1::7')).toBe('2001:db8:1::7');
    expect(behindMiddleware.of('10.1.2.3', '::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(behindMiddleware.of('10.1.2.3', '[2001:db8:1::7]:443')).toBe('2001:db8:1::7');
    expect(behindMiddleware.of('10.1.2.3', '203.0.113.9:4711')).toBe('203.0.113.9');
    expect(behindMiddleware.of('10.1.2.3', '2001:0db8:0001:0000:0000:0000:0000:0007')).toBe('2001:0db8:0001:0000:0000:0000:0000:0007');
    expect(new ClientAddresses(['::ffff:10.0.0.0/104']).of('10.1.2.3', '203.0.113.9')).toBe('203.0.113.9');
  });

  it.each([
    ['garbage', 'not-an-address'],
    ['an empty hop', '203.0.113.9, '],
    ['inet_aton forms', '0x7f.0.0.1'],
    ['a short form', '127.1'],
    ['an IPv6 zone', 'fe80::1%eth0'],
    ['a bad port', '203.0.113.9:99999999'],
    ['an unclosed bracket', '[2001:db8::1'],
    ['text after the bracket', '[2001:db8::1]x'],
    ['a name', 'crawl.googlebot.com'],
    ['a huge entry', `${'9'.repeat(10_000)}`],
    ['RFC 7239 syntax', 'for=203.0.113.9'],
  ])('has no address when the client hop is %s', (_what, header) => {
    expect(behindMiddleware.of('10.1.2.3', header)).toBeUndefined();
  });

  it('stops after MAX_FORWARDED_HOPS trusted hops, and reads a huge header from its end only', () => {
    const trustedHops = Array.from({ length: MAX_FORWARDED_HOPS }, (_, i) => `10.0.0.${i}`).join(', ');
    expect(behindMiddleware.of('10.1.2.3', `203.0.113.9, ${trustedHops}`)).toBeUndefined();
    const forged = Array.from({ length: 5_000 }, () => '66.249.66.1').join(', ');
    expect(behindMiddleware.of('10.1.2.3', `${forged}, 203.0.113.9`)).toBe('203.0.113.9');
  });

  it('reads repeated headers (as an array) like one joined header', () => {
    expect(behindMiddleware.of('10.1.2.3', ['66.249.66.1', '203.0.113.9'])).toBe('203.0.113.9');
  });
});
