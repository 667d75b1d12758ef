import { validationError } from '../shared/app-error';
import type { HostCatalog } from './host-catalog';
import type { HostDefinition } from './host-definition';
import { normalizeHttpUrl } from './normalize-url';

export interface TargetsInput {
  readonly hostId: number;
  readonly urls: readonly string[];
  readonly dimensionIds?: readonly number[];
}

export interface ResolvedTargets {
  readonly host: HostDefinition;
  /** Distinct normalised URLs, in request order. */
  readonly urls: URL[];
  readonly dimensionIds: number[];
}

/**
 * The entries a request is about: a known host; `maxUrls` at most, each an
 * absolute http(s) URL on one of the host's hostnames, normalised and
 * de-duplicated; the named dimensions (each configured) or, when none are
 * named, all of the host's. Throws VALIDATION_FAILED naming the field.
 */
export function resolveTargets(input: TargetsInput, hosts: HostCatalog, maxUrls: number): ResolvedTargets {
  const host = hosts.host(input.hostId);
  if (!host) throw validationError('host_id', `host_id ${input.hostId}: host not found`);
  if (input.urls.length < 1 || input.urls.length > maxUrls) {
    throw validationError('urls', `urls must hold 1 to ${maxUrls} entries, got ${input.urls.length}`);
  }
  const configured = host.dimensions.map((d) => d.id);
  const requested = input.dimensionIds ?? [];
  requested.forEach((id, i) => {
    if (!configured.includes(id)) throw validationError(`dimension_ids[${i}]`, `dimension_ids[${i}]: dimension ${id} is not configured for host ${host.host_id}`);
  });
  const hostnames = new Set(host.hostnames.map((n) => n.toLowerCase()));
  const urls = new Map<string, URL>();
  input.urls.forEach((raw, i) => {
    const url = normalizeHttpUrl(raw);
    if (!url) throw validationError(`urls[${i}]`, `urls[${i}] is not an absolute http(s) URL`);
    if (!hostnames.has(url.hostname)) {
      throw validationError(`urls[${i}]`, `urls[${i}] is not on host ${host.host_id} (${host.hostnames.join(', ')})`);
    }
    urls.set(url.href, url);
  });
  return { host, urls: [...urls.values()], dimensionIds: requested.length > 0 ? [...new Set(requested)] : configured };
}
