import { CliUsageError, parseCli } from './cli-args';

describe('cli arguments', () => {
  it('parses tokens issue / list / revoke, dashboard link and demo-data', () => {
    expect(parseCli(['tokens', 'issue', '--user', 'alice', '--website', 'demo', '--role', 'manager', '--expires', '2027-01-01']).command).toEqual({
      kind: 'tokens-issue', user: 'alice', website: 'demo', role: 'manager', expires: '2027-01-01', label: undefined,
    });
    expect(parseCli(['tokens', 'list', '--json'])).toEqual({ command: { kind: 'tokens-list' }, options: { url: undefined, internalKey: undefined, json: true } });
    expect(parseCli(['tokens', 'revoke', 'tok_1', '--url=http://x:1']).command).toEqual({ kind: 'tokens-revoke', tokenId: 'tok_1' });
    expect(parseCli(['dashboard', 'link', '--user', 'alice']).command).toEqual({ kind: 'dashboard-link', user: 'alice' });
    expect(() => parseCli(['dashboard', 'link'])).toThrow(CliUsageError);
    expect(parseCli(['demo-data', '--days', '10']).command).toEqual({ kind: 'demo-data', website: 'demo', days: 10, requestsPerDay: 1500, seed: 42 });
  });

  it('parses sql with its output format (table by default, json with --json)', () => {
    expect(parseCli(['sql', 'SELECT 1']).command).toEqual({ kind: 'sql', sql: 'SELECT 1', format: 'table' });
    expect(parseCli(['sql', 'SELECT 1', '--format', 'csv']).command).toEqual({ kind: 'sql', sql: 'SELECT 1', format: 'csv' });
    expect(parseCli(['sql', 'SELECT 1', '--json']).command).toEqual({ kind: 'sql', sql: 'SELECT 1', format: 'json' });
  });

  it('parses site add with its hostnames, comma-separated', () => {
    expect(parseCli(['site', 'add', '--host', 'www.shop.test, shop.test']).command).toEqual({
      kind: 'site-add', hostnames: ['www.shop.test', 'shop.test'], website: undefined, account: undefined, origin: undefined, hostId: undefined,
    });
    expect(parseCli(['site', 'add', '--host', 'shop.test', '--website', 'shop', '--account', 'acme', '--origin', 'http://10.0.0.5', '--host-id', '7']).command).toEqual({
      kind: 'site-add', hostnames: ['shop.test'], website: 'shop', account: 'acme', origin: 'http://10.0.0.5', hostId: 7,
    });
  });

  it.each([
    [['site', 'add']],
    [['site', 'add', '--host', 'shop.test', '--host-id', '0']],
    [['tokens', 'issue', '--user', 'alice', '--role', 'admin']],
    [['tokens', 'revoke']],
    [['tokens', 'list', '--bogus', '1']],
    [['demo-data', '--days', 'ten']],
    [['frobnicate']],
    [['tokens', 'issue', '--user']],
    [['sql']],
    [['sql', 'SELECT 1', '--format', 'xml']],
  ])('refuses %j with a usage error', (argv) => {
    expect(() => parseCli(argv)).toThrow(CliUsageError);
  });
});
