import { AddressPolicy } from './address-policy';
import { isPublicAddress, isTrustedTarget, refusalOfUrl } from './egress-rules';

describe('egress rules', () => {
  const addresses = new AddressPolicy({ ownAddresses: () => [] });
  describe('isPublicAddress', () => {
    it.each([
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'IPv6 loopback'],
      ['[::1]', 'IPv6 loopback in brackets'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'IPv6 unspecified'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local (cloud metadata)'],
      ['fe80::1', 'IPv6 link-local'],
      ['fd00::1', 'unique-local'],
      ['100.64.0.1', 'carrier-grade NAT'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'IPv6 multicast'],
      ['255.255.255.255', 'broadcast'],
      ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
      ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
      ['::ffff:10.0.0.1', 'IPv4-mapped private'],
      ['64:ff9b::7f00:1', 'NAT64 of loopback'],
      ['2002:7f00:1::', '6to4 of loopback'],
      ['::7f00:1', 'IPv4-compatible loopback'],
      ['::a00:1', 'IPv4-compatible private'],
      ['::8.8.8.8', 'IPv4-compatible, deprecated whatever it carries'],
      ['240.0.0.1', 'reserved'],
      ['not an address', 'unparseable'],
    ])('refuses %s (%s)', (address) => {
      expect(isPublicAddress(address)).toBe(false);
    });

    it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34'])('allows public unicast %s', (address) => {
      expect(isPublicAddress(address)).toBe(true);
    });
  });

  describe('refusalOfUrl (no DNS: literal addresses, schemes, localhost)', () => {
    it.each(['http://127.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://[::1]:3003/metrics', 'http://0.0.0.0:3000/', 'http://[::ffff:127.0.0.1]/', 'http://[::127.0.0.1]/', 'https://169.254.169.254/latest/meta-data'])(
      'refuses %s whatever the spelling',
      (url) => {
        expect(refusalOfUrl(new URL(url), { addresses })).toMatch(/internal address/);
      },
    );

    it.each(['file:///etc/passwd', 'ftp://example.com/', 'chrome://settings', 'gopher://example.com/'])('refuses the scheme of %s', (url) => {
      expect(refusalOfUrl(new URL(url), { addresses })).toMatch(/scheme .* is not allowed/);
    });

    it('leaves names to the check where the connection is made', () => {
      expect(refusalOfUrl(new URL('https://cdn.example.com/app.js'), { addresses })).toBeUndefined();
      expect(refusalOfUrl(new URL('http://93.184.216.34/'), { addresses })).toBeUndefined();
      expect(refusalOfUrl(new URL('http://localhost:3003/'), { addresses })).toBeUndefined();
    });

    it("allows exactly the host's configured origin on an internal address: same scheme, host and port, nothing else there", () => {
      const rules = { trustedOrigin: new URL('http://127.0.0.1:4000'), addresses };
      expect(refusalOfUrl(new URL('http://127.0.0.1:4000/page?x=1'), rules)).toBeUndefined();
      expect(refusalOfUrl(new URL('http://127.0.0.1:4001/'), rules)).toMatch(/internal address/);
      expect(refusalOfUrl(new URL('https://127.0.0.1:4000/'), rules)).toMatch(/internal address/);
    });
  });

  describe('isTrustedTarget', () => {
    it('matches a CONNECT tunnel only to a trusted https origin', () => {
      const tunnel = { scheme: 'tunnel', hostname: '10.0.0.5', port: 443 } as const;
      expect(isTrustedTarget(tunnel, { trustedOrigin: new URL('https://10.0.0.5'), addresses })).toBe(true);
      expect(isTrustedTarget(tunnel, { trustedOrigin: new URL('http://10.0.0.5:443'), addresses })).toBe(false);
      expect(isTrustedTarget(tunnel, { addresses })).toBe(false);
    });
  });
});
