import { normalizeHttpUrl } from '@bpc/domain';

/** The parts of a page URL the edge uses. */
export interface PageUrl {
  readonly href: string;
  readonly hostname: string;
}

/**
 * The page URL of a request target `/https://www.example.com/p?x=1`. A proxy
 * that merged the slashes of the scheme (`/https:/www…`) is forgiven.
 */
export function pageUrlOf(target: string): PageUrl | undefined {
  if (!target.startsWith('/')) return undefined;
  const raw = escapedWhole(target.slice(1)).replace(/^(https?):\/(?!\/)/i, '$1://');
  if (!/^https?:\/\//i.test(raw)) return undefined;
  const url = normalizeHttpUrl(raw);
  return url && { href: url.href, hostname: url.hostname };
}

/**
 * A page URL sent escaped as a whole, decoded once; anything else as it is:
 * - some integrations percent-encode it whole (`https%3A%2F%2Fhost%2Fp%3Fq%3D1`);
 * - nginx's `rewrite .* /$scheme://$host$request_uri? break;` of the common
 *   pre-rendering guides escapes the rewritten URI: `?` as `%3F`, `%` as
 *   `%25` (`/caf%C3%A9` arrives as `/caf%25C3%25A9`). No `?` but a `%3F`,
 *   or an escape escaped again (`%25` and two hex digits), means that, and
 *   decoding once undoes it (the open-source pre-rendering server decodes
 *   every URL once). A URL without a query whose path really holds `%3F` or
 *   `%25xx` is then read decoded: an edge case we accept.
 */
function escapedWhole(raw: string): string {
  const escaped = /^https?%3A/i.test(raw) || (!raw.includes('?') && /%3F|%25[0-9a-f]{2}/i.test(raw));
  if (!escaped) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
