import { BlockList, isIP, isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** More hops than this in `X-Forwarded-For` are not walked: no real proxy chain is that long, and a hostile header must not cost more. */
export const MAX_FORWARDED_HOPS = 16;

/**
 * The bot's address as the edge may believe it. In the pre-rendering
 * protocol the edge's peer is never the bot: it is the customer's middleware
 * (nginx, `prerender-node`, a worker) or a load balancer in front of the
 * edge. So the address comes only from `X-Forwarded-For`, and only as far as
 * trusted proxies (`edge.trusted_proxies`, CIDR) vouch for it: the peer must
 * be one of them, then the header is read from the right (each proxy appends
 * the address it saw), skipping entries that are trusted proxies too; the
 * first entry that is not is the client. Entries left of it were written by
 * the client itself and are never read, so a forged header changes nothing.
 * No trusted peer, no header, or a garbage entry where the client should be:
 * no address (`undefined`), and verification answers `unknown`.
 *
 * Addresses are checked with node:net (`isIP`, `BlockList`, native) rather
 * than parsed with ipaddr.js, which took about 17 µs for an IPv6 entry: this
 * runs on every bot request of an operator that can be verified
 * (`npm run bots:bench`). ipaddr.js reads the configured ranges.
 */
export class ClientAddresses {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  constructor(trustedProxies: readonly string[]) {
    for (const cidr of trustedProxies) {
      const [network, length] = ipaddr.parseCIDR(cidr);
      // BlockList matches IPv4-mapped IPv6 addresses against IPv4 ranges; a range written IPv4-mapped is its IPv4 range.
      if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && length >= 96) this.trusted.addSubnet(network.toIPv4Address().toString(), length - 96, 'ipv4');
      else this.trusted.addSubnet(network.toString(), length, network.kind());
    }
    this.any = trustedProxies.length > 0;
  }

  /** The client's address as the trusted proxy wrote it (an IPv4-mapped IPv6 address as IPv4), or undefined; never throws. */
  of(peer: string | undefined, forwardedFor: string | readonly string[] | undefined): string | undefined {
    if (!this.any || peer === undefined || forwardedFor === undefined || !this.isTrusted(peer)) return undefined;
    // Node joins repeated X-Forwarded-For headers with ", "; an array (a caller's own parse) is read the same way.
    const header = typeof forwardedFor === 'string' ? forwardedFor : forwardedFor.join(',');
    let end = header.length;
    for (let hop = 0; hop < MAX_FORWARDED_HOPS && end > 0; hop++) {
      const start = header.lastIndexOf(',', end - 1);
      const address = entryAddress(header.slice(start + 1, end));
      if (address === undefined) return undefined;
      if (!this.isTrusted(address)) return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
      end = start;
    }
    return undefined;
  }

  /** Whether `address` (an address in its usual form: four decimal parts, or IPv6 without a zone) is a trusted proxy's. */
  private isTrusted(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/**
 * One `X-Forwarded-For` entry's address: trimmed, and a port taken off where
 * proxies add one (`203.0.113.7:4711`, `[2001:db8::1]:443`). IPv4 only as
 * four decimal parts (not the `127.1` or `0x7f.0.0.1` forms inet_aton takes),
 * IPv6 without a zone; anything else is garbage (undefined).
 */
function entryAddress(entry: string): string | undefined {
  let text = entry.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0 || (close !== text.length - 1 && !/^:\d{1,5}$/.test(text.slice(close + 1)))) return undefined;
    text = text.slice(1, close);
  } else {
    const colon = text.indexOf(':');
    if (colon > 0 && colon === text.lastIndexOf(':')) {
      if (!/^\d{1,5}$/.test(text.slice(colon + 1))) return undefined;
      text = text.slice(0, colon);
    }
  }
  return isIP(text) !== 0 && !text.includes('%') ? text : undefined;
}
