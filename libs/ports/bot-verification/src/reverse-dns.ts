import ipaddr from 'ipaddr.js';
import type { Verification } from './verification';

/**
 * The lookups forward-confirmed reverse DNS needs; node:dns/promises' Resolver
 * is one (pointed at a configured server). PTR records are asked by name, not
 * with `reverse(ip)`: c-ares reports every failure of `reverse` as ENOTFOUND,
 * so a timeout would read as "no such record", a proof against the claim.
 */
export interface DnsLookups {
  resolvePtr(name: string): Promise<string[]>;
  resolve4(hostname: string): Promise<string[]>;
  resolve6(hostname: string): Promise<string[]>;
}

/** The in-addr.arpa (IPv4) or ip6.arpa (IPv6) name whose PTR record names `ip`'s host. */
export function reverseLookupName(ip: string): string {
  const address = ipaddr.process(ip);
  const bytes = address.toByteArray();
  if (address.kind() === 'ipv4') return `${bytes.reverse().join('.')}.in-addr.arpa`;
  const nibbles = bytes.flatMap((byte) => [byte >> 4, byte & 0xf]);
  return `${nibbles.reverse().map((nibble) => nibble.toString(16)).join('.')}.ip6.arpa`;
}

// Only this many PTR names are checked: a reverse zone may answer many, and each costs a forward lookup.
const CHECKED_NAMES = 4;
// Answers that prove a name or address has no record: a definite "not this operator", unlike a timeout or a server failure.
const NO_SUCH_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

/** Whether `hostname` is one of `domains` or a name under one (case and a trailing dot ignored): `crawl-1.googlebot.com` is under `googlebot.com`, `evilgooglebot.com` is not. */
export function isUnderDomains(hostname: string, domains: readonly string[]): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** What a failed lookup says about the claim: no such record is `no`, anything else (timeout, server failure, refused) `unknown`. */
export function verificationOfLookupError(error: unknown): Verification {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NO_SUCH_RECORD.has(code) ? 'no' : 'unknown';
}

/** Whether one of a name's forward addresses is `ip` (compared as addresses, so `::ffff:1.2.3.4` is `1.2.3.4`). */
export function confirmsAddress(ip: string, forwardAddresses: readonly string[]): boolean {
  const wanted = ipaddr.process(ip).toNormalizedString();
  return forwardAddresses.some((address) => ipaddr.isValid(address) && ipaddr.process(address).toNormalizedString() === wanted);
}

/**
 * Forward-confirmed reverse DNS, as operators document it: the address's PTR
 * name must be under one of the operator's domains, and that name's A (or
 * AAAA) records must hold the same address. A name outside the domains, one
 * that resolves elsewhere or to nothing (a CNAME loop answers no address), or
 * no PTR at all is `no`; a timeout, a server failure or the `timeoutMs` bound
 * for the whole check is `unknown`. Never rejects.
 */
export async function verifyByReverseDns(ip: string, operatorDomains: readonly string[], lookups: DnsLookups, timeoutMs = 2_000): Promise<Verification> {
  if (!ipaddr.isValid(ip)) return 'unknown';
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Verification>((resolve) => {
    timer = setTimeout(() => resolve('unknown'), timeoutMs);
  });
  try {
    return await Promise.race([confirm(ipaddr.process(ip).toString(), operatorDomains, lookups), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function confirm(ip: string, operatorDomains: readonly string[], lookups: DnsLookups): Promise<Verification> {
  let names: string[];
  try {
    names = await lookups.resolvePtr(reverseLookupName(ip));
  } catch (error) {
    return verificationOfLookupError(error);
  }
  const candidates = names.slice(0, CHECKED_NAMES).filter((name) => isUnderDomains(name, operatorDomains));
  let undecided = false;
  for (const name of candidates) {
    try {
      const addresses = ip.includes(':') ? await lookups.resolve6(name) : await lookups.resolve4(name);
      if (confirmsAddress(ip, addresses)) return 'yes';
    } catch (error) {
      if (verificationOfLookupError(error) === 'unknown') undecided = true;
    }
  }
  return undecided ? 'unknown' : 'no';
}
