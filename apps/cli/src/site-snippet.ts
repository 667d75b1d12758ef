import { randomBytes } from 'node:crypto';
import { stringify as stringifyYaml } from 'yaml';
import { sha256Hex } from '@bpc/domain';

/** What `site add` was asked for; absent values are derived from the first hostname and the configuration file. */
export interface SiteRequest {
  readonly hostnames: readonly string[];
  readonly website?: string;
  readonly account?: string;
  readonly origin?: string;
  readonly hostId?: number;
}

/** The parts of the current configuration file a new site must not collide with (read raw: the file need not be valid yet). */
export interface ExistingSites {
  readonly hostIds: readonly number[];
  readonly hostnames: readonly string[];
  readonly websiteIds: readonly string[];
}

export interface SiteSnippet {
  /** The edge token, shown once: the configuration keeps only its SHA-256. */
  readonly token: string;
  readonly hostId: number;
  readonly websiteId: string;
  /** The new `hosts[]` item, as YAML lines indented to go under the file's `hosts:` key. */
  readonly hostYaml: string;
  /** The new `websites[]` item, to go under `websites:`. */
  readonly websiteYaml: string;
}

export class SiteConflictError extends Error {}

/** The sites a configuration file has, read leniently: what is missing or malformed there is the validator's to report. */
export function existingSitesOf(raw: Record<string, unknown> | undefined): ExistingSites {
  const list = (key: string) => (Array.isArray(raw?.[key]) ? (raw[key] as Record<string, unknown>[]) : []);
  const hosts = list('hosts');
  return {
    hostIds: hosts.map((h) => h?.host_id).filter((id): id is number => typeof id === 'number'),
    hostnames: hosts.flatMap((h) => (Array.isArray(h?.hostnames) ? h.hostnames : [])).map((n) => String(n).toLowerCase()),
    websiteIds: list('websites').map((w) => String(w?.id)),
  };
}

/** A random edge token (32 bytes, base64url) with a prefix that says what it is when it turns up in a log or a vault. */
export function newPrerenderToken(): string {
  return `bpc_pre_${randomBytes(32).toString('base64url')}`;
}

/**
 * The configuration items for one more site: a host (its hostnames, origin
 * and one cache dimension) and a website on it whose edge token is stored as
 * its SHA-256. Refuses what the configuration would refuse at startup: a
 * hostname, host id or website id already in use.
 */
export function siteSnippet(request: SiteRequest, existing: ExistingSites, token: string = newPrerenderToken()): SiteSnippet {
  const hostnames = request.hostnames.map((name) => name.trim().toLowerCase()).filter(Boolean);
  const [first] = hostnames;
  if (!first) throw new SiteConflictError('--host needs at least one hostname');
  for (const name of hostnames) {
    if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(name)) throw new SiteConflictError(`${name} is not a hostname (give it without scheme or path, e.g. www.example.com)`);
    if (existing.hostnames.includes(name)) throw new SiteConflictError(`hostname ${name} is already configured`);
  }
  const websiteId = request.website ?? first.slice(0, 63);
  if (existing.websiteIds.includes(websiteId)) throw new SiteConflictError(`website ${websiteId} is already configured (choose another with --website)`);
  const hostId = request.hostId ?? Math.max(0, ...existing.hostIds) + 1;
  if (existing.hostIds.includes(hostId)) throw new SiteConflictError(`host_id ${hostId} is already configured`);
  const host = {
    host_id: hostId,
    hostnames,
    origin: request.origin ?? `https://${first}`,
    cache_ttl: 86_400,
    dimensions: [{ id: 1, name: 'default', match: { fallback: true }, action: 'render' }],
  };
  const website = {
    id: websiteId,
    host_id: hostId,
    account_id: request.account ?? websiteId,
    platform_module: true,
    prerender_token_sha256: sha256Hex(token),
  };
  return { token, hostId, websiteId, hostYaml: listItemYaml(host), websiteYaml: listItemYaml(website) };
}

/** What `site add` prints: the token once, then the two items and where they go. */
export function siteSnippetText(snippet: SiteSnippet, configFile: string): string {
  return [
    `Edge token for website ${snippet.websiteId} (shown once: your middleware sends it as X-Prerender-Token):`,
    '',
    `  ${snippet.token}`,
    '',
    `Add these items to ${configFile}, then restart the service.`,
    'Under hosts:',
    snippet.hostYaml,
    'Under websites:',
    snippet.websiteYaml,
  ].join('\n');
}

/** One list item as YAML, indented two spaces like the items of the committed configuration files. */
function listItemYaml(item: Record<string, unknown>): string {
  return stringifyYaml([item])
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
