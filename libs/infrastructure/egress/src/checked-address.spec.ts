import { AddressPolicy } from './address-policy';
import { resolveCheckedAddress, type Resolve, type ResolvedAddress } from './checked-address';
import { EgressRefused } from './egress-rules';

describe('resolveCheckedAddress', () => {
  const answers = (records: Record<string, readonly ResolvedAddress[]>): Resolve & { calls: string[] } => {
    const calls: string[] = [];
    const resolve = async (hostname: string) => {
      calls.push(hostname);
      const found = records[hostname];
      if (!found) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    };
    return Object.assign(resolve, { calls });
  };
  const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
  const https = (hostname: string, port = 443) => ({ scheme: 'https:', hostname, port }) as const;
  const addresses = new AddressPolicy({ ownAddresses: () => [] });
  const strict = { addresses };
  /** Pages' names through `page`; the trusted origin's through `trusted`. */
  const resolvers = (page: Resolve, trusted: Resolve = answers({})) => ({ page, trusted });

  it('returns the one address it checked, resolving the name once', async () => {
    const resolve = answers({ 'www.example.com': [v4('93.184.216.34')] });
    await expect(resolveCheckedAddress(https('www.example.com'), strict, resolvers(resolve))).resolves.toEqual(v4('93.184.216.34'));
    expect(resolve.calls).toEqual(['www.example.com']);
  });

  it('refuses a name that resolves to an internal address', async () => {
    const resolve = answers({ 'rebind.example.com': [v4('127.0.0.1')] });
    await expect(resolveCheckedAddress(https('rebind.example.com'), strict, resolvers(resolve))).rejects.toThrow(new EgressRefused('rebind.example.com resolves to an internal address (127.0.0.1)'));
  });

  it('refuses a name with one public and one internal address, whichever a connection would pick', async () => {
    const resolve = answers({ 'split.example.com': [v4('93.184.216.34'), { address: '::1', family: 6 }] });
    await expect(resolveCheckedAddress(https('split.example.com'), strict, resolvers(resolve))).rejects.toThrow(EgressRefused);
  });

  it('checks literal addresses without a lookup', async () => {
    const resolve = answers({});
    await expect(resolveCheckedAddress({ scheme: 'http:', hostname: '[::ffff:7f00:1]', port: 80 }, strict, resolvers(resolve))).rejects.toThrow('is an internal address');
    await expect(resolveCheckedAddress(https('93.184.216.34'), strict, resolvers(resolve))).resolves.toEqual(v4('93.184.216.34'));
    expect(resolve.calls).toEqual([]);
  });

  it("refuses the machine's own public addresses and the operator's denied ranges", async () => {
    const policy = new AddressPolicy({ ownAddresses: () => ['203.0.113.5', 'fe80::1%eth0', '2001:db8::5'], deniedRanges: ['198.51.100.0/24', '2606:4700:10::/48'] });
    const resolve = answers({ 'self.example.com': [v4('203.0.113.5')], 'nat.example.com': [v4('198.51.100.7')], 'ok.example.com': [v4('93.184.216.34')] });
    const rules = { addresses: policy };
    await expect(resolveCheckedAddress(https('self.example.com'), rules, resolvers(resolve))).rejects.toThrow(EgressRefused);
    await expect(resolveCheckedAddress(https('nat.example.com'), rules, resolvers(resolve))).rejects.toThrow(EgressRefused);
    await expect(resolveCheckedAddress(https('[2606:4700:10::1]'), rules, resolvers(resolve))).rejects.toThrow(EgressRefused);
    await expect(resolveCheckedAddress(https('ok.example.com'), rules, resolvers(resolve))).resolves.toEqual(v4('93.184.216.34'));
  });

  it('lets the trusted origin resolve (through the system resolver) to an internal address, and only on its own scheme and port', async () => {
    const page = answers({ 'origin.internal': [v4('10.0.0.7')] });
    const trusted = answers({ 'origin.internal': [v4('10.0.0.7')] });
    const rules = { trustedOrigin: new URL('https://origin.internal'), addresses };
    await expect(resolveCheckedAddress(https('origin.internal'), rules, resolvers(page, trusted))).resolves.toEqual(v4('10.0.0.7'));
    expect([page.calls, trusted.calls]).toEqual([[], ['origin.internal']]);
    await expect(resolveCheckedAddress(https('origin.internal', 8443), rules, resolvers(page, trusted))).rejects.toThrow(EgressRefused);
    await expect(resolveCheckedAddress({ scheme: 'http:', hostname: 'origin.internal', port: 443 }, rules, resolvers(page, trusted))).rejects.toThrow(EgressRefused);
  });

  it("passes a resolver's failure on as it is", async () => {
    await expect(resolveCheckedAddress(https('nowhere.example'), strict, resolvers(answers({})))).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
