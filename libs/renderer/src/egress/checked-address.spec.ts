import { resolveCheckedAddress, type Resolve, type ResolvedAddress } from './checked-address';
import { EgressRefused } from './egress-rules';

describe('resolveCheckedAddress', () => {
  const answers = (records: Record<string, readonly ResolvedAddress[]>): Resolve & { calls: string[] } => {
    const calls: string[] = [];
    const resolve = async (hostname: string) => {
      calls.push(hostname);
      const found = records[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    };
    return Object.assign(resolve, { calls });
  };
  const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
  const https = (hostname: string, port = 443) => ({ scheme: 'https:', hostname, port }) as const;

  it('returns the one address it checked, resolving the name once', async () => {
    const resolve = answers({ 'www.example.com': [v4('93.184.216.34')] });
    await expect(resolveCheckedAddress(https('www.example.com'), {}, resolve)).resolves.toEqual(v4('93.184.216.34'));
    expect(resolve.calls).toEqual(['www.example.com']);
  });

  it('refuses a name that resolves to an internal address', async () => {
    const resolve = answers({ 'rebind.example.com': [v4('127.0.0.1')] });
    await expect(resolveCheckedAddress(https('rebind.example.com'), {}, resolve)).rejects.toThrow(new EgressRefused('rebind.example.com resolves to an internal address (127.0.0.1)'));
  });

  it('refuses a name with one public and one internal address, whichever a connection would pick', async () => {
    const resolve = answers({ 'split.example.com': [v4('93.184.216.34'), { address: '::1', family: 6 }] });
    await expect(resolveCheckedAddress(https('split.example.com'), {}, resolve)).rejects.toThrow(EgressRefused);
  });

  it('checks literal addresses without a lookup', async () => {
    const resolve = answers({});
    await expect(resolveCheckedAddress({ scheme: 'http:', hostname: '[::ffff:7f00:1]', port: 80 }, {}, resolve)).rejects.toThrow('is an internal address');
    await expect(resolveCheckedAddress(https('93.184.216.34'), {}, resolve)).resolves.toEqual(v4('93.184.216.34'));
    expect(resolve.calls).toEqual([]);
  });

  it('lets the trusted origin resolve to an internal address, and only on its own scheme and port', async () => {
    const resolve = answers({ 'origin.internal': [v4('10.0.0.7')] });
    const rules = { trustedOrigin: new URL('https://origin.internal') };
    await expect(resolveCheckedAddress(https('origin.internal'), rules, resolve)).resolves.toEqual(v4('10.0.0.7'));
    await expect(resolveCheckedAddress(https('origin.internal', 8443), rules, resolve)).rejects.toThrow(EgressRefused);
    await expect(resolveCheckedAddress({ scheme: 'http:', hostname: 'origin.internal', port: 443 }, rules, resolve)).rejects.toThrow(EgressRefused);
  });

  it("passes a resolver's failure on as it is", async () => {
    await expect(resolveCheckedAddress(https('nowhere.example'), {}, answers({}))).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
