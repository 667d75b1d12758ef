import ipaddr from 'ipaddr.js';

/** The format operators publish their crawlers' addresses in (Google, Bing, OpenAI, Perplexity, Apple: the same shape). */
export interface PublishedRangeFile {
  readonly creationTime?: string;
  readonly prefixes: readonly ({ readonly ipv4Prefix: string } | { readonly ipv6Prefix: string })[];
}

/** A range file and the operator it belongs to (the operator name as the bot classifier gives it). */
export interface OperatorRangeFile {
  readonly operator: string;
  readonly file: PublishedRangeFile;
}

/** Published ranges compiled for lookups: per prefix length, a map from network to operator, longest prefix first. */
export interface AddressRanges {
  /** The operator whose published ranges hold `ip` (IPv4, IPv6 or IPv4-mapped IPv6), or undefined (also for an invalid address). */
  operatorOfAddress(ip: string): string | undefined;
  /** The operators that publish ranges: for them an address outside their ranges is proof against a claim. */
  readonly operators: ReadonlySet<string>;
}

interface PrefixTables<K> {
  readonly lengths: number[];
  readonly byLength: Map<number, Map<K, string>>;
}

/** Compiles range files; a prefix that is not valid CIDR throws, naming it (a broken file must not load as fewer ranges). */
export function rangesOf(files: readonly OperatorRangeFile[]): AddressRanges {
  const v4: PrefixTables<number> = { lengths: [], byLength: new Map() };
  const v6: PrefixTables<bigint> = { lengths: [], byLength: new Map() };
  for (const { operator, file } of files) {
    for (const prefix of file.prefixes) {
      const cidr = 'ipv4Prefix' in prefix ? prefix.ipv4Prefix : prefix.ipv6Prefix;
      if (!ipaddr.isValidCIDR(cidr)) throw new Error(`${operator}: ${JSON.stringify(cidr)} is not a CIDR prefix`);
      const [network, length] = ipaddr.parseCIDR(cidr);
      if (network.kind() === 'ipv4') add(v4, length, networkKey4(toNumber(network.toByteArray()), length), operator);
      else add(v6, length, networkKey6(toBigInt(network.toByteArray()), length), operator);
    }
  }
  return {
    operators: new Set(files.map((file) => file.operator)),
    operatorOfAddress(ip) {
      if (!ipaddr.isValid(ip)) return undefined;
      const address = ipaddr.process(ip);
      const bytes = address.toByteArray();
      if (address.kind() === 'ipv4') {
        const value = toNumber(bytes);
        return find(v4, (length) => networkKey4(value, length));
      }
      const value = toBigInt(bytes);
      return find(v6, (length) => networkKey6(value, length));
    },
  };
}

function add<K>(tables: PrefixTables<K>, length: number, key: K, operator: string): void {
  let networks = tables.byLength.get(length);
  if (networks === undefined) {
    networks = new Map();
    tables.byLength.set(length, networks);
    tables.lengths.push(length);
    tables.lengths.sort((a, b) => b - a);
  }
  networks.set(key, operator);
}

function find<K>(tables: PrefixTables<K>, keyOf: (length: number) => K): string | undefined {
  for (const length of tables.lengths) {
    const operator = tables.byLength.get(length)!.get(keyOf(length));
    if (operator !== undefined) return operator;
  }
  return undefined;
}

function networkKey4(value: number, length: number): number {
  return length === 0 ? 0 : Math.floor(value / 2 ** (32 - length));
}

function networkKey6(value: bigint, length: number): bigint {
  return value >> BigInt(128 - length);
}

function toNumber(bytes: readonly number[]): number {
  return bytes.reduce((value, byte) => value * 256 + byte, 0);
}

function toBigInt(bytes: readonly number[]): bigint {
  return bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
}
