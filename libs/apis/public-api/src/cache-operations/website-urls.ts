import type { AppConfig } from '@bpc/config';
import { HostCatalog, resolveTargets, validationError } from '@bpc/domain';

/** Per-call URL limits of the public cache endpoints (spec/public-api.md, Limits). */
export const PUBLIC_URL_LIMITS = { high: 100, normal: 1000, invalidate: 1000 } as const;

export interface WebsiteUrls {
  readonly hostId: number;
  /** Distinct normalised URLs in request order: what `urlsAccepted` counts. */
  readonly urls: string[];
}

/**
 * The URLs of a public cache call, checked against the website's host: 1 to
 * `limit` entries as sent (duplicates included), each an absolute http(s) URL
 * on one of the host's hostnames, then normalised and de-duplicated.
 * Throws VALIDATION_FAILED naming `urls` or `urls[i]`.
 */
export function websiteUrls(config: AppConfig, hosts: HostCatalog, websiteId: string, urls: readonly string[], limit: number, limitNote = ''): WebsiteUrls {
  const website = config.websites.find((w) => w.id === websiteId);
  // The guard has already refused unknown websites; this is a configuration bug.
  if (!website) throw new Error(`website ${websiteId} is not configured`);
  if (urls.length < 1 || urls.length > limit) throw validationError('urls', `urls must hold 1 to ${limit} entries${limitNote}, got ${urls.length}`);
  const resolved = resolveTargets({ hostId: website.host_id, urls }, hosts, limit);
  return { hostId: website.host_id, urls: resolved.urls.map((url) => url.href) };
}
