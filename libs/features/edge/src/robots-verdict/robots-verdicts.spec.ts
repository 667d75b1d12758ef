import { AddressPolicy } from '@bpc/egress';
import { RobotsTxtKeeper } from '@bpc/robots-txt';
import type { PageRequest } from '../serve-page/page-request';
import { RobotsVerdicts } from './robots-verdicts';

const HOSTS = [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [], url_rules: [], cache_ttl: 1, render: {}, last_good: {} }] as never;
const pageOf = (botName: string, hostId = 1) => ({ hostId, url: 'https://www.example.com/a', bot: { identity: { name: botName, category: 'other', operator: 'unknown' }, verified: 'unknown' } }) as unknown as PageRequest;

describe('RobotsVerdicts: what is recorded before robots.txt is known, or when it cannot apply', () => {
  // None of these cases asks the keeper, so it fetches nothing (the first request of a host is tested end to end).
  const keeper = new RobotsTxtKeeper({ addresses: new AddressPolicy(), refreshMs: 60_000 });
  afterAll(() => keeper.close());

  it('is unknown for a User-Agent that names no bot (no group is known to apply), for an unknown host, and with robots.txt off', () => {
    expect(new RobotsVerdicts(keeper, HOSTS).of(pageOf('other'))).toBe('unknown');
    expect(new RobotsVerdicts(keeper, HOSTS).of(pageOf('Googlebot', 9))).toBe('unknown');
    expect(new RobotsVerdicts(undefined, HOSTS).of(pageOf('Googlebot'))).toBe('unknown');
  });

});
