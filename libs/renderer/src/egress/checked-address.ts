import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import pLimit from 'p-limit';
import { EgressRefused, isPublicAddress, isTrustedTarget, unbracketed, type EgressRules, type EgressTarget } from './egress-rules';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address a name resolves to (the system resolver, as a connection would use it). */
export type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>;

const lookupSlots = pLimit(2);

/**
 * The system resolver, at most two lookups at a time. getaddrinfo runs on
 * libuv's thread pool (four threads), which file I/O shares: a page naming
 * many hosts whose DNS answers slowly must not stall the event log's writes.
 */
export const systemResolve: Resolve = (hostname) => lookupSlots(async () => (await dnsLookup(hostname, { all: true, verbatim: true })) as ResolvedAddress[]);


/**
 * The one address to connect to for `target`, resolved once and checked:
 * callers connect to exactly this address, so there is no second lookup an
 * attacker's DNS could answer differently (rebinding). Every address the name
 * resolves to must be public: a name that resolves to one public and one
 * internal address is refused, whichever the connection would have picked.
 * The trusted origin is resolved but not checked.
 *
 * Throws `EgressRefused` for an internal address, and the resolver's own
 * error (e.g. `ENOTFOUND`) for a name that does not resolve.
 */
export async function resolveCheckedAddress(target: EgressTarget, rules: EgressRules, resolve: Resolve = systemResolve): Promise<ResolvedAddress> {
  const host = unbracketed(target.hostname);
  const literal = isIP(host);
  const addresses: readonly ResolvedAddress[] = literal ? [{ address: host, family: literal as 4 | 6 }] : await resolve(host);
  if (addresses.length === 0) throw new EgressRefused(`${target.hostname} does not resolve`);
  if (isTrustedTarget(target, rules)) return addresses[0];
  const internal = addresses.find((a) => !isPublicAddress(a.address));
  if (internal) {
    throw new EgressRefused(literal ? `${target.hostname} is an internal address` : `${target.hostname} resolves to an internal address (${internal.address})`);
  }
  return addresses[0];
}
