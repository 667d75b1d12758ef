import ipaddr from 'ipaddr.js';

/** More hops than this in `X-Forwarded-For` are not walked: no real proxy chain is that long, and a hostile header must not cost more. */
export const MAX_FORWARDED_HOPS = 16;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

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
 */
export class ClientAddresses {
  private readonly ranges: readonly Range[];

  constructor(trustedProxies: readonly string[]) {
    this.ranges = trustedProxies.map((cidr) => {
      const [network, length] = ipaddr.parseCIDR(cidr);
      // Addresses are compared as `ipaddr.process` gives them, so an IPv4-mapped range (::ffff:10.0.0.0/104) is its IPv4 range.
      if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && length >= 96) return [network.toIPv4Address(), length - 96];
      return [network, length];
    });
  }

  /** The client's address (normalised: IPv4-mapped IPv6 as IPv4), or undefined; never throws. */
  of(peer: string | undefined, forwardedFor: string | readonly string[] | undefined): string | undefined {
    if (this.ranges.length === 0 || peer === undefined || forwardedFor === undefined) return undefined;
    const peerAddress = parsed(peer);
    if (peerAddress === undefined || !this.trusted(peerAddress)) return undefined;
    // Node joins repeated X-Forwarded-For headers with ", "; an array (a caller's own parse) is read the same way.
    const header = typeof forwardedFor === 'string' ? forwardedFor : forwardedFor.join(',');
    let end = header.length;
    for (let hop = 0; hop < MAX_FORWARDED_HOPS && end > 0; hop++) {
      const start = header.lastIndexOf(',', end - 1);
      const address = parsed(entryAddress(header.slice(start + 1, end)));
      if (address === undefined) return undefined;
      if (!this.trusted(address)) return address.toString();
      end = start;
    }
    return undefined;
  }

  private trusted(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    for (const range of this.ranges) if (range[0].kind() === address.kind() && address.match(range)) return true;
    return false;
  }
}

/**
 * An address in its usual text form (IPv4 as four decimal parts, not the
 * `127.1` or `0x7f.0.0.1` forms inet_aton takes; IPv6 without a zone), an
 * IPv4-mapped IPv6 address read as IPv4; undefined for anything else.
 */
function parsed(text: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (text === undefined) return undefined;
  const valid = text.includes(':') ? ipaddr.IPv6.isValid(text) && !text.includes('%') : ipaddr.IPv4.isValidFourPartDecimal(text);
  return valid ? ipaddr.process(text) : undefined;
}

/**
 * One `X-Forwarded-For` entry's address: trimmed, and a port taken off where
 * proxies add one (`203.0.113.7:4711`, `[2001:db8::1]:443`). Anything longer
 * than an address with a port, or with an IPv6 zone, is garbage.
 */
function entryAddress(entry: string): string | undefined {
  const text = entry.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    return close > 0 && (close === text.length - 1 || /^:\d{1,5}$/.test(text.slice(close + 1))) ? text.slice(1, close) : undefined;
  }
  const colon = text.indexOf(':');
  if (colon > 0 && colon === text.lastIndexOf(':')) return /^\d{1,5}$/.test(text.slice(colon + 1)) ? text.slice(0, colon) : undefined;
  return text;
}
