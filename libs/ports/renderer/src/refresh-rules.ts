import { validateHeaderValue } from 'node:http';
import { type DimensionDefinition, type HostDefinition, type RecacheMode, type UrlRuleDefinition } from '@bpc/domain';
import { STORED_HEADERS, type StoredHeaders } from '@bpc/cache-store';

/** The job's mode, else the URL rule's action when it is `render`/`bypass`, else the dimension's action. */
export function resolveMode(jobMode: RecacheMode | undefined, rule: UrlRuleDefinition | undefined, dimension: DimensionDefinition): RecacheMode {
  if (jobMode) return jobMode;
  if (rule && rule.action !== 'ignore') return rule.action;
  return dimension.action;
}

/** Expiry of a stored entry: now + the URL rule's `cache_ttl` if set, else the host's (seconds). */
export function expiresAt(now: number, host: Pick<HostDefinition, 'cache_ttl'>, rule: UrlRuleDefinition | undefined): number {
  return now + (rule?.cache_ttl ?? host.cache_ttl) * 1000;
}

export interface Emulation {
  readonly mobile: boolean;
  readonly userAgent: string;
  readonly viewport: { readonly width: number; readonly height: number; readonly isMobile: boolean; readonly hasTouch: boolean; readonly deviceScaleFactor: number };
}

export const DESKTOP_BOT_USER_AGENT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36';
export const MOBILE_BOT_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const DESKTOP: Emulation = {
  mobile: false,
  userAgent: DESKTOP_BOT_USER_AGENT,
  viewport: { width: 1366, height: 768, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
};
const MOBILE: Emulation = {
  mobile: true,
  userAgent: MOBILE_BOT_USER_AGENT,
  viewport: { width: 412, height: 915, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
};

/**
 * Which bot the render pretends to be. A dimension is mobile when its
 * `match.user_agent` regex (case-insensitive, as the catalog compiles it)
 * matches the mobile Googlebot UA but not the desktop one: a regex matching
 * both (e.g. `googlebot`) is generic and renders as desktop, as does a
 * fallback dimension without a regex.
 */
export function emulationFor(dimension: DimensionDefinition): Emulation {
  const pattern = dimension.match.user_agent;
  if (!pattern) return DESKTOP;
  const regex = new RegExp(pattern, 'i');
  return regex.test(MOBILE_BOT_USER_AGENT) && !regex.test(DESKTOP_BOT_USER_AGENT) ? MOBILE : DESKTOP;
}

/**
 * The headers the cache keeps (see `STORED_HEADERS`), from a lower-cased
 * header map. A header the origin sent several times arrives with its values
 * joined by newlines (Chrome's DevTools protocol): they are joined with commas,
 * as HTTP combines repeated fields. A value that still could not be sent (a
 * control character) is dropped rather than stored.
 */
export function storedHeaders(raw: Readonly<Record<string, string | undefined>>): StoredHeaders {
  const kept: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = raw[name]
      ?.split('\n')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .join(', ');
    if (value && isSendableHeaderValue(name, value)) kept[name] = value;
  }
  return kept;
}

function isSendableHeaderValue(name: string, value: string): boolean {
  try {
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}

/** What a rendered page says of itself through `<meta name="prerender-status-code">` and `<meta name="prerender-header">`. */
export interface PageSignals {
  readonly statusCode: string | null;
  /** Contents of every `prerender-header` meta tag (`Location: https://…`). */
  readonly headers: readonly string[];
}

/**
 * The status and Location a single-page app asks bots to get (the prerender
 * convention: a soft 404 says `prerender-status-code` 404, a client-side
 * redirect 301 plus `prerender-header` `Location: …`, as written: resolve it
 * with `publicLocation`). Undefined when the page sets no valid status; a 3xx
 * without a valid Location is ignored, as is a status outside 200–599.
 */
export function signalledStatus(signals: PageSignals, publicUrl: URL): { statusCode: number; location?: string } | undefined {
  const raw = signals.statusCode?.trim() ?? '';
  if (!/^\d{3}$/.test(raw)) return undefined;
  const statusCode = Number(raw);
  if (statusCode < 200 || statusCode > 599) return undefined;
  if (statusCode < 300 || statusCode > 399) return { statusCode };
  const header = signals.headers.map((h) => /^\s*location\s*:\s*(\S.*?)\s*$/i.exec(h)).find((m) => m !== null);
  if (!header) return undefined;
  try {
    new URL(header[1], publicUrl);
  } catch {
    return undefined;
  }
  return { statusCode, location: header[1] };
}

/**
 * Why an origin answer is not worth caching, or undefined when it is: a
 * server error or a throttle (408, 429, 5xx) is transient and retried, while
 * 2xx, 3xx and other 4xx (a 404 is what bots should see) are real answers.
 */
export function unstorableStatus(statusCode: number): string | undefined {
  if (statusCode >= 500 || statusCode === 408 || statusCode === 429) return `origin answered ${statusCode}`;
  if (statusCode < 200) return `unexpected status ${statusCode}`;
  return undefined;
}
