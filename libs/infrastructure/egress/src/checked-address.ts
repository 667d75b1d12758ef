import { lookup as systemLookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { EgressRefused, isTrustedTarget, unbracketed, type EgressRules, type EgressTarget } from './egress-rules';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address a name resolves to. */
export type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** How names are resolved: those a page (or its origin's redirects) asks for, and the operator's trusted origin. */
export interface Resolvers {
  readonly page: Resolve;
  readonly trusted: Resolve;
}

/** How long a DNS server has to answer one try for a page's name (two tries). */
const DNS_TRY_TIMEOUT_MS = 2_500;

/**
 * Names a page asks for, resolved over DNS by c-ares (`dns.Resolver`, A and
 * AAAA at once), never by getaddrinfo: that runs on libuv's thread pool,
 * which file I/O shares, and a page naming hosts whose DNS never answers would
 * hold its threads (and, through any queue in front of it, every other
 * host's lookups). Nor are they read from the hosts file, whose names are the
 * machine's own (`localhost`, a container's peers): they do not resolve.
 */
export function dnsResolve(newResolver: () => Resolver = () => new Resolver({ timeout: DNS_TRY_TIMEOUT_MS, tries: 2 })): Resolve {
  let resolver: Resolver | undefined;
  return async (hostname) => {
    resolver ??= newResolver();
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length > 0) return addresses;
    throw v4.status === 'rejected' ? v4.reason : (v6 as PromiseRejectedResult).reason;
  };
}

/** The operator's trusted origin, resolved as any program on the machine resolves a name (hosts file included). */
export const systemResolve: Resolve = async (hostname) => (await systemLookup(hostname, { all: true, verbatim: true })) as ResolvedAddress[];

export const DEFAULT_RESOLVERS: Resolvers = { page: dnsResolve(), trusted: systemResolve };

/**
 * The one address to connect to for `target`, resolved once and checked:
 * callers connect to exactly this address, so there is no second lookup an
 * attacker's DNS could answer differently (rebinding). Every address the name
 * resolves to must be allowed (`rules.addresses`): a name that resolves to one
 * public and one internal address is refused, whichever the connection would
 * have picked. The trusted origin is resolved but not checked.
 *
 * Throws `EgressRefused` for an address not allowed, and the resolver's own
 * error (e.g. `ENOTFOUND`) for a name that does not resolve.
 */
export async function resolveCheckedAddress(target: EgressTarget, rules: EgressRules, resolvers: Resolvers = DEFAULT_RESOLVERS): Promise<ResolvedAddress> {
  const host = unbracketed(target.hostname);
  const literal = isIP(host);
  const trusted = isTrustedTarget(target, rules);
  const addresses: readonly ResolvedAddress[] = literal ? [{ address: host, family: literal as 4 | 6 }] : await (trusted ? resolvers.trusted : resolvers.page)(host);
  if (addresses.length === 0) throw new EgressRefused(`${target.hostname} does not resolve`);
  if (trusted) return addresses[0];
  const refused = addresses.find((a) => !rules.addresses.allows(a.address));
  if (refused) {
    throw new EgressRefused(literal ? `${target.hostname} is an internal address` : `${target.hostname} resolves to an internal address (${refused.address})`);
  }
  return addresses[0];
}
