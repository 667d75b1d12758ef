import RE2 from 're2';
import type { CacheEntrySelection } from '@bpc/cache-store';
import type { AppConfig } from '@bpc/config';
import { HostCatalog, HostDefinition, normalizeHttpUrl, validationError } from '@bpc/domain';
import { regexPatternProblem } from '@bpc/explorer';

/** What a listing or a bulk invalidation names: exactly one of them. */
export interface EntrySelectionInput {
  readonly prefix?: string;
  readonly pattern?: string;
}

export interface WebsiteEntrySelection {
  readonly host: HostDefinition;
  readonly selection: CacheEntrySelection;
  /** The body field the selection came from: what a refusal of its size names. */
  readonly field: 'prefix' | 'pattern';
}

/** The website's host (the guard has refused unknown websites: a missing one is a configuration bug). */
export function websiteHost(config: AppConfig, hosts: HostCatalog, websiteId: string): HostDefinition {
  const website = config.websites.find((w) => w.id === websiteId);
  const host = website && hosts.host(website.host_id);
  if (!host) throw new Error(`website ${websiteId} has no configured host`);
  return host;
}

/** Whether a (normalised) URL is on one of the host's hostnames. */
export function onHost(host: HostDefinition, url: URL): boolean {
  return host.hostnames.some((name) => name.toLowerCase() === url.hostname);
}

/**
 * The entries of the website's host a body selects. `prefix`: an absolute
 * http(s) URL on one of the website's hostnames, normalised as cache keys
 * are (so `HTTPS://WWW.EXAMPLE.COM/blog` selects what `https://www.example.com/blog`
 * does). `pattern`: an RE2 expression searched in the whole URL (anchor it
 * with `^` … `$` to match all of it), refused as the explorers' `regex`
 * filter refuses one; a leading `^` literal narrows the walk to that prefix.
 * Throws VALIDATION_FAILED naming `prefix` or `pattern`.
 */
export function resolveEntrySelection(config: AppConfig, hosts: HostCatalog, websiteId: string, { prefix, pattern }: EntrySelectionInput): WebsiteEntrySelection {
  const host = websiteHost(config, hosts, websiteId);
  if (prefix !== undefined && pattern !== undefined) throw validationError('pattern', 'give either prefix or pattern, not both');
  if (prefix !== undefined) {
    const url = normalizeHttpUrl(prefix);
    if (!url) throw validationError('prefix', 'prefix must be an absolute http(s) URL (the start of the URLs to select)');
    if (!onHost(host, url)) throw validationError('prefix', `prefix must be on the website's hostnames (${host.hostnames.join(', ')})`);
    return { host, selection: { urlPrefix: url.href }, field: 'prefix' };
  }
  if (pattern !== undefined) {
    if (pattern.length === 0) throw validationError('pattern', 'pattern must not be empty');
    const problem = regexPatternProblem(pattern);
    if (problem) throw validationError('pattern', problem);
    const expression = new RE2(pattern, 'u');
    return { host, selection: { urlPrefix: literalPrefixOf(pattern), urlFilter: (url) => expression.test(url) }, field: 'pattern' };
  }
  throw validationError('prefix', 'give prefix (an absolute URL the entries start with) or pattern (an RE2 expression)');
}

const SPECIAL = new Set(['.', '[', ']', '(', ')', '{', '}', '*', '+', '?', '^', '$', '|', '\\']);

/**
 * The text every URL a pattern matches must start with: the literal
 * characters after a leading `^`, up to the first operator (escaped
 * punctuation such as `\.` counts as literal; a character that a `?`, `*` or
 * `{` makes optional does not). Empty when the pattern is not anchored or has
 * an alternation anywhere (`^a|b` matches URLs not starting with `a`).
 * Only narrows where to look: the pattern itself still decides.
 */
export function literalPrefixOf(pattern: string): string {
  if (!pattern.startsWith('^') || pattern.includes('|')) return '';
  let literal = '';
  for (let i = 1; i < pattern.length; ) {
    let char = pattern[i];
    let width = 1;
    if (char === '\\') {
      const escaped = pattern[i + 1];
      // `\d`, `\w`, `\Q`, `\x{…}` …: classes and escapes with a meaning of their own end the literal.
      if (escaped === undefined || /[\p{L}\p{N}]/u.test(escaped)) break;
      char = escaped;
      width = 2;
    } else if (SPECIAL.has(char)) break;
    const next = pattern[i + width];
    if (next === '?' || next === '*' || next === '{') break;
    literal += char;
    if (next === '+') break;
    i += width;
  }
  return literal;
}
