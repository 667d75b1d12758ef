import type { HostCatalog } from '../hosts/host-catalog';
import { resolveTargets } from '../hosts/resolve-targets';
import type { RequestablePriority } from './priority';
import type { RecacheMode } from './recache-mode';

export const MAX_RECACHE_URLS = 10_000;

export interface RecacheRequestInput {
  readonly hostId: number;
  readonly urls: readonly string[];
  readonly dimensionIds?: readonly number[];
  readonly priority: RequestablePriority;
  readonly mode?: RecacheMode;
}

/** What gets queued: `urls` × `dimensionIds`. */
export interface RecacheDecision {
  readonly hostId: number;
  readonly urls: string[];
  readonly dimensionIds: number[];
  readonly priority: RequestablePriority;
  readonly mode?: RecacheMode;
}

/**
 * Checks a recache request against the configured hosts and resolves it (see
 * `resolveTargets`); URLs whose rule says `ignore` are never queued.
 */
export function decideRecache(input: RecacheRequestInput, hosts: HostCatalog): RecacheDecision {
  const { host, urls, dimensionIds } = resolveTargets(input, hosts, MAX_RECACHE_URLS);
  return {
    hostId: host.host_id,
    urls: urls.filter((url) => hosts.urlRule(host.host_id, url)?.action !== 'ignore').map((url) => url.href),
    dimensionIds,
    priority: input.priority,
    ...(input.mode ? { mode: input.mode } : {}),
  };
}
