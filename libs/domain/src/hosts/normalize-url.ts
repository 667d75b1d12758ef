/**
 * Parses an absolute HTTP(S) URL into the form used as a cache and queue key:
 * scheme and host lower-cased by the WHATWG parser, default port dropped,
 * fragment removed (bots never send it), query kept as given.
 * Returns undefined for anything else.
 */
export function normalizeHttpUrl(input: unknown): URL | undefined {
  if (typeof input !== 'string' || input.length === 0 || input.length > 8192) return undefined;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
  url.hash = '';
  return url;
}
