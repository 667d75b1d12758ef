import type { HostCatalog } from '../hosts/host-catalog';
import { resolveTargets, TargetsInput } from '../hosts/resolve-targets';
import { MAX_RECACHE_URLS } from './decide-recache';

/** Upper bound on `urls` per invalidate call: the specification leaves it open, so the same as recache. */
export const MAX_INVALIDATE_URLS = MAX_RECACHE_URLS;

export interface InvalidateDecision {
  readonly hostId: number;
  readonly urls: string[];
  readonly dimensionIds: number[];
}

/** The cache entries an invalidate call drops: `urls` × `dimensionIds`, resolved as for recache. */
export function decideInvalidate(input: TargetsInput, hosts: HostCatalog): InvalidateDecision {
  const { host, urls, dimensionIds } = resolveTargets(input, hosts, MAX_INVALIDATE_URLS);
  return { hostId: host.host_id, urls: urls.map((url) => url.href), dimensionIds };
}
