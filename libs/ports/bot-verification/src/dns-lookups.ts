import { Resolver } from 'node:dns/promises';
import type { DnsLookups } from './reverse-dns';

export interface DnsLookupsOptions {
  /** DNS servers as `host` or `host:port` (default: the system's). */
  readonly servers?: readonly string[];
  /** One query's timeout; with `tries`, the bound on each lookup (default 1 s). */
  readonly timeoutMs?: number;
  /** Attempts per query (default 2). */
  readonly tries?: number;
}

/** Lookups through node:dns's c-ares resolver (not the system's getaddrinfo, which has no timeout and holds a libuv thread). */
export function createDnsLookups(options: DnsLookupsOptions = {}): DnsLookups {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 1_000, tries: options.tries ?? 2 });
  if (options.servers !== undefined) resolver.setServers([...options.servers]);
  return resolver;
}
