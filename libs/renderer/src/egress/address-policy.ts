import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { canonicalAddress, isPublicAddress } from './egress-rules';

export interface AddressPolicyOptions {
  /** CIDR ranges refused on top of the special ones (`render_service.egress_denied_ranges`): a cloud NAT address, a load balancer's. */
  readonly deniedRanges?: readonly string[];
  /** The machine's own addresses (default: its network interfaces, read at most every 10 s). */
  readonly ownAddresses?: () => readonly string[];
}

const OWN_ADDRESSES_TTL_MS = 10_000;

/**
 * Which addresses a render or origin fetch may connect to: public unicast
 * addresses (`isPublicAddress`), except the machine's own — a service
 * listening on `0.0.0.0` or `::` answers on the public address of an
 * interface too — and the operator's denied ranges.
 */
export class AddressPolicy {
  private readonly denied: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
  private readonly ownAddresses: () => readonly string[];

  constructor(options: AddressPolicyOptions = {}) {
    this.denied = (options.deniedRanges ?? []).map((range) => ipaddr.parseCIDR(range));
    this.ownAddresses = options.ownAddresses ?? cachedInterfaceAddresses();
  }

  allows(address: string): boolean {
    const bare = canonicalAddress(address);
    if (bare === undefined || !isPublicAddress(bare)) return false;
    const parsed = ipaddr.process(bare);
    if (this.denied.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) return false;
    return !this.ownAddresses().some((own) => sameAddress(own, parsed));
  }
}

function sameAddress(text: string, address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const own = canonicalAddress(text);
  return own !== undefined && ipaddr.process(own).toNormalizedString() === address.toNormalizedString();
}

function cachedInterfaceAddresses(): () => readonly string[] {
  let addresses: readonly string[] = [];
  let readAt = -Infinity;
  return () => {
    const now = Date.now();
    if (now - readAt >= OWN_ADDRESSES_TTL_MS) {
      addresses = Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
      readAt = now;
    }
    return addresses;
  };
}
