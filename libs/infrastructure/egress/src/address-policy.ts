import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { parsedAddress, publicAddress } from './egress-rules';

export interface AddressPolicyOptions {
  /** CIDR ranges refused on top of the special ones (`render_service.egress_denied_ranges`): a cloud NAT address, a load balancer's. */
  readonly deniedRanges?: readonly string[];
  /** The machine's own addresses (default: its network interfaces); read at most every 10 s. */
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
  /** The machine's own addresses, normalised once per read rather than per check. */
  private readonly own: () => ReadonlySet<string>;

  constructor(options: AddressPolicyOptions = {}) {
    this.denied = (options.deniedRanges ?? []).map((range) => ipaddr.parseCIDR(range));
    this.own = readAtMostEvery(OWN_ADDRESSES_TTL_MS, () => normalised(options.ownAddresses?.() ?? interfaceAddresses()));
  }

  allows(address: string): boolean {
    const parsed = publicAddress(address);
    if (!parsed) return false;
    if (this.denied.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))) return false;
    return !this.own().has(parsed.toNormalizedString());
  }
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
}

function normalised(addresses: readonly string[]): ReadonlySet<string> {
  return new Set(addresses.flatMap((address) => parsedAddress(address)?.toNormalizedString() ?? []));
}

function readAtMostEvery<T>(ms: number, read: () => T): () => T {
  let value: T | undefined;
  let readAt = -Infinity;
  return () => {
    const now = Date.now();
    if (value === undefined || now - readAt >= ms) {
      value = read();
      readAt = now;
    }
    return value;
  };
}
