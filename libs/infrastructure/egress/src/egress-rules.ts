import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { AddressPolicy } from './address-policy';

/**
 * What a render or origin fetch of one host may connect to. Only public
 * unicast addresses, except the host's own configured `origin`: in local
 * development and tests it is often a loopback or private address, and then
 * exactly its scheme, host and port are allowed, nothing else on that address.
 */
export interface EgressRules {
  /** The host's configured `origin` (never the default `https://<hostname>`: customers' DNS must not open a way in). */
  readonly trustedOrigin?: URL;
  /** The addresses anything else may connect to (see `AddressPolicy`). */
  readonly addresses: AddressPolicy;
}

/**
 * Where a connection would go. `tunnel` is a proxy CONNECT: Chromium opens one
 * for `https:`, `wss:` and `ws:` alike, so only a trusted `https:` origin
 * matches it.
 */
export interface EgressTarget {
  readonly scheme: 'http:' | 'https:' | 'tunnel';
  /** As a URL parser gives it: lower-case, IPv6 in brackets. */
  readonly hostname: string;
  readonly port: number;
}

/** A connection a render or fetch may not make; the message says why, without secrets. */
export class EgressRefused extends Error {
  override readonly name = 'EgressRefused';
}

/**
 * Whether an address is public unicast. ipaddr.js names every special range
 * (loopback, private, link-local, unique-local, carrier-grade NAT, multicast,
 * broadcast, unspecified, reserved, and the IPv6 transition ranges that embed
 * an IPv4 address); `unicast` is what is left. IPv4-mapped IPv6 addresses are
 * judged as the IPv4 address they carry; the deprecated IPv4-compatible ones
 * (`::a.b.c.d`, which ipaddr.js calls unicast) are refused. Anything
 * unparseable is not public.
 */
export function isPublicAddress(address: string): boolean {
  return publicAddress(address) !== undefined;
}

/** The address parsed (IPv4-mapped ones as IPv4), when it is public (see `isPublicAddress`). */
export function publicAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const parsed = parsedAddress(address);
  if (!parsed || (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE))) return undefined;
  return parsed.range() === 'unicast' ? parsed : undefined;
}

/** An IP address in any spelling, parsed as the URL standard reads it, IPv4-mapped ones as IPv4; undefined for anything else. */
export function parsedAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = canonicalAddress(address);
  return bare !== undefined && ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * An IP address as the URL standard serialises it (IPv6 in hex, compressed),
 * the spelling the kernel connects to: ipaddr.js reads a dotted tail such as
 * `::8.8.8.8` (IPv4-compatible) as if it were `::ffff:8.8.8.8` (mapped).
 * undefined for text that is not an IP address.
 */
function canonicalAddress(address: string): string | undefined {
  const bare = unbracketed(address).split('%')[0];
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family === 6) return unbracketed(new URL(`http://[${bare}]/`).hostname);
  return undefined;
}

/** The target of a URL, or undefined for a scheme that may not leave at all (`file:`, `ftp:`, `chrome:` …). */
export function targetOf(url: URL): EgressTarget | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return { scheme: url.protocol, hostname: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
}

/** Whether the target is exactly the trusted origin (scheme, host and port). */
export function isTrustedTarget(target: EgressTarget, rules: EgressRules): boolean {
  const origin = rules.trustedOrigin;
  if (!origin) return false;
  const trusted = targetOf(origin);
  if (!trusted || trusted.hostname !== target.hostname || trusted.port !== target.port) return false;
  return target.scheme === trusted.scheme || (target.scheme === 'tunnel' && trusted.scheme === 'https:');
}

/**
 * The refusal of a request judged on its URL alone, before any DNS lookup:
 * a scheme other than http(s), or a literal internal address (any spelling a
 * URL parser accepts is already normalised to one) that is not the trusted
 * origin. undefined means "may go on": a name (`localhost` included) is
 * checked where the connection is made (see `resolveCheckedAddress`), so that
 * the address checked is the address connected to.
 */
export function refusalOfUrl(url: URL, rules: EgressRules): string | undefined {
  const target = targetOf(url);
  if (!target) return `scheme ${url.protocol} is not allowed`;
  if (isTrustedTarget(target, rules)) return undefined;
  const host = unbracketed(target.hostname);
  if (isIP(host) && !rules.addresses.allows(host)) return `${url.host} is an internal address`;
  return undefined;
}

export function unbracketed(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
