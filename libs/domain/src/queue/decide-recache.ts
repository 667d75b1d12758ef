import type { HostCatalog } from '../hosts/host-catalog';
import { normalizeHttpUrl } from '../hosts/normalize-url';
import { validationError } from '../shared/app-error';
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
 * Checks a recache request against the configured hosts and resolves it:
 * empty or omitted dimensions mean all of the host's; URLs are normalised,
 * must be HTTP(S) on one of the host's hostnames, are de-duplicated, and
 * URLs whose rule says `ignore` are never queued. Throws VALIDATION_FAILED
 * naming the offending field.
 */
export function decideRecache(input: RecacheRequestInput, hosts: HostCatalog): RecacheDecision {
  const host = hosts.host(input.hostId);
  if (!host) throw validationError('host_id', `host_id ${input.hostId}: host not found`);
  if (input.urls.length < 1 || input.urls.length > MAX_RECACHE_URLS) {
    throw validationError('urls', `urls must hold 1 to ${MAX_RECACHE_URLS} entries, got ${input.urls.length}`);
  }
  const configured = new Set(host.dimensions.map((d) => d.id));
  const requested = input.dimensionIds ?? [];
  requested.forEach((id, i) => {
    if (!configured.has(id)) throw validationError(`dimension_ids[${i}]`, `dimension ${id} is not configured for host ${host.host_id}`);
  });
  const hostnames = new Set(host.hostnames.map((n) => n.toLowerCase()));
  const urls = new Set<string>();
  input.urls.forEach((raw, i) => {
    const url = normalizeHttpUrl(raw);
    if (!url) throw validationError(`urls[${i}]`, `urls[${i}] is not an absolute http(s) URL`);
    if (!hostnames.has(url.hostname)) {
      throw validationError(`urls[${i}]`, `urls[${i}] is not on host ${host.host_id} (${host.hostnames.join(', ')})`);
    }
    if (hosts.urlRule(host.host_id, url)?.action !== 'ignore') urls.add(url.href);
  });
  return {
    hostId: host.host_id,
    urls: [...urls],
    dimensionIds: requested.length > 0 ? [...new Set(requested)] : [...configured],
    priority: input.priority,
    ...(input.mode ? { mode: input.mode } : {}),
  };
}
