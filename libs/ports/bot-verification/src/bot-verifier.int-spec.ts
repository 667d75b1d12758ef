import path from 'node:path';
import { gate } from '../../../../test/harness/gate';
import { startTestDnsZone, type TestDnsZone } from '../../../../test/harness/test-dns-zone';
import { BotVerifier, type BotVerifierOptions } from './bot-verifier';
import { rangesOf } from './published-ranges';
import { readRangeFiles } from './range-files';
import { verifyByReverseDns, type DnsLookups } from './reverse-dns';

const GOOGLE = ['googlebot.com', 'google.com', 'googleusercontent.com'];

describe('forward-confirmed reverse DNS against a DNS server on loopback', () => {
  let zone: TestDnsZone;

  beforeAll(async () => {
    zone = await startTestDnsZone(
      [
        { type: 'PTR', address: '203.0.113.1', name: 'crawl-203-0-113-1.googlebot.com' },
        { type: 'A', name: 'crawl-203-0-113-1.googlebot.com', address: '203.0.113.1' },
        { type: 'PTR', address: '2001:db8:ab::1', name: 'crawl-v6.googlebot.com' },
        { type: 'AAAA', name: 'crawl-v6.googlebot.com', address: '2001:db8:ab::1' },
        // A forger's own reverse zone may name anything: here a name under Google's domain that resolves to another address.
        { type: 'PTR', address: '203.0.113.2', name: 'crawl-forged.googlebot.com' },
        { type: 'A', name: 'crawl-forged.googlebot.com', address: '203.0.113.99' },
        { type: 'PTR', address: '203.0.113.3', name: 'googlebot.com.forger.example' },
        { type: 'A', name: 'googlebot.com.forger.example', address: '203.0.113.3' },
        { type: 'PTR', address: '203.0.113.4', name: 'crawl-loop.googlebot.com' },
        { type: 'CNAME', name: 'crawl-loop.googlebot.com', target: 'crawl-loop-2.googlebot.com' },
        { type: 'CNAME', name: 'crawl-loop-2.googlebot.com', target: 'crawl-loop.googlebot.com' },
        { type: 'PTR', address: '203.0.113.5', name: 'crawl-silent.googlebot.com' },
        { type: 'PTR', address: '203.0.113.7', name: 'crawl-nowhere.googlebot.com' },
      ],
      (name) => name === 'crawl-silent.googlebot.com' || name === '6.113.0.203.in-addr.arpa',
    );
  });

  afterAll(() => zone.close());

  it.each([
    ['203.0.113.1', 'yes', 'its PTR name is under the domain and resolves back to it'],
    ['2001:db8:ab::1', 'yes', 'the same over IPv6'],
    ['::ffff:203.0.113.1', 'yes', 'an IPv4-mapped address is its IPv4 address'],
    ['203.0.113.2', 'no', 'its PTR name resolves elsewhere'],
    ['203.0.113.3', 'no', 'its PTR name only starts like the domain'],
    ['203.0.113.4', 'no', 'its PTR name is a CNAME loop with no address'],
    ['203.0.113.7', 'no', 'its PTR name does not resolve at all'],
    ['203.0.113.8', 'no', 'it has no PTR record'],
    ['203.0.113.5', 'unknown', 'the forward lookup times out'],
    ['203.0.113.6', 'unknown', 'the reverse lookup times out'],
    ['not-an-ip', 'unknown', 'it is not an address'],
  ])('%s is %s: %s', async (ip, verification) => {
    expect(await verifyByReverseDns(ip, GOOGLE, zone.resolver(300))).toBe(verification);
  });

  it('answers unknown once its own bound passes, even while a lookup is still waiting', async () => {
    // The resolver waits 5 s for the silent name; the check's own bound (the thing under test) ends it first.
    const started = Date.now();
    expect(await verifyByReverseDns('203.0.113.6', GOOGLE, zone.resolver(5_000), 200)).toBe('unknown');
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  describe('BotVerifier', () => {
    let clock = 0;
    const verifierWith = async (options: Partial<BotVerifierOptions> = {}): Promise<BotVerifier> =>
      new BotVerifier({ ranges: rangesOf(await readRangeFiles(path.join(__dirname, 'sample-ranges'))), lookups: zone.resolver(300), now: () => clock, ...options });

    it('answers unknown for the first request of an address at once, then the checked answer', async () => {
      const verifier = await verifierWith();
      expect(verifier.verify('Google', '203.0.113.1')).toBe('unknown');
      expect(verifier.verify('Google', '203.0.113.2')).toBe('unknown');
      await verifier.idle();
      expect(verifier.verify('Google', '203.0.113.1')).toBe('yes');
      expect(verifier.verify('Google', '203.0.113.2')).toBe('no');
    });

    it('answers from published ranges at once, with no DNS', async () => {
      const verifier = await verifierWith();
      expect(verifier.verify('OpenAI', '198.51.100.3')).toBe('yes');
      expect(verifier.verify('Google', '2001:db8:4860::77')).toBe('yes');
      // OpenAI documents ranges only: an address outside them is proof against the claim.
      expect(verifier.verify('OpenAI', '203.0.113.1')).toBe('no');
      expect(verifier.verify('OpenAI', '192.0.2.1')).toBe('no');
    });

    it('answers unknown without an address, and for an operator with no documented method', async () => {
      const verifier = await verifierWith();
      expect(verifier.verify('Google', undefined)).toBe('unknown');
      expect(verifier.verify('Google', 'garbage')).toBe('unknown');
      expect(verifier.verify('Ahrefs', '203.0.113.1')).toBe('unknown');
      await verifier.idle();
      expect(verifier.verify('Google', 'garbage')).toBe('unknown');
    });

    it('keeps an answer for its TTL, then gives it while checking again, and retries a failed check sooner', async () => {
      const lookups = countingLookups(zone.resolver(300));
      const verifier = await verifierWith({ lookups, ttlMs: 1_000, unknownTtlMs: 100 });
      verifier.verify('Google', '203.0.113.1');
      verifier.verify('Google', '203.0.113.5');
      await verifier.idle();
      expect(lookups.reverses).toBe(2);
      clock += 500;
      expect(verifier.verify('Google', '203.0.113.1')).toBe('yes');
      expect(verifier.verify('Google', '203.0.113.5')).toBe('unknown');
      await verifier.idle();
      expect(lookups.reverses).toBe(3);
      clock += 1_000;
      expect(verifier.verify('Google', '203.0.113.1')).toBe('yes');
      await verifier.idle();
      expect(lookups.reverses).toBe(4);
    });

    it('runs at most maxConcurrentChecks checks at once, queues at most maxQueuedChecks, and checks an address once however often it comes', async () => {
      const held = gate();
      const lookups = countingLookups(zone.resolver(300), held.opened);
      const verifier = await verifierWith({ lookups, maxConcurrentChecks: 2, maxQueuedChecks: 3 });
      for (let i = 0; i < 3; i++) for (let host = 1; host <= 8; host++) expect(verifier.verify('Google', `203.0.113.${100 + host}`)).toBe('unknown');
      held.open();
      await verifier.idle();
      expect(lookups.mostAtOnce).toBe(2);
      expect(lookups.reverses).toBe(5);
    });
  });
});

/** The resolver, counting reverse lookups and how many ran at once; each waits for `held` first when given. */
function countingLookups(resolver: DnsLookups, held?: Promise<void>): DnsLookups & { reverses: number; mostAtOnce: number } {
  let running = 0;
  const counted = {
    reverses: 0,
    mostAtOnce: 0,
    resolvePtr: async (name: string) => {
      counted.reverses++;
      counted.mostAtOnce = Math.max(counted.mostAtOnce, ++running);
      try {
        await held;
        return await resolver.resolvePtr(name);
      } finally {
        running--;
      }
    },
    resolve4: (name: string) => resolver.resolve4(name),
    resolve6: (name: string) => resolver.resolve6(name),
  };
  return counted;
}
