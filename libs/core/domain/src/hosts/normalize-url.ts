/** The query parameter that carries a `#!` fragment in the AJAX crawling scheme (what pre-rendering middlewares forward). */
export const ESCAPED_FRAGMENT = '_escaped_fragment_';

/**
 * Parses an absolute HTTP(S) URL into the form used as a cache and queue key:
 * scheme and host lower-cased by the WHATWG parser, default port dropped,
 * query kept as given, fragment removed (bots never send it) except a `#!`
 * fragment, which names a state of the page (see `pageStateOf`). Returns
 * undefined for anything else.
 *
 * The AJAX crawling scheme's "ugly" URL is read as the page state it stands
 * for, as the `prerender` server does: `/p?_escaped_fragment_=k=v` is
 * `/p#!k=v` (the parameter removed, the other query parameters kept as
 * given, its value decoded), and an empty `/p?_escaped_fragment_=` is `/p`
 * itself (a page that opted in with `<meta name="fragment" content="!">`).
 * A bot asking for the ugly URL and a recache naming the `#!` URL thus reach
 * the same entry.
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
  const escaped = url.searchParams.get(ESCAPED_FRAGMENT);
  if (escaped !== null) url.search = withoutEscapedFragment(url.search);
  const state = escaped ?? pageStateOf(url.hash);
  url.hash = state ? `#!${state}` : '';
  return url;
}

/** The page state a `#!` fragment names (`#!k=v` → `k=v`); empty for any other fragment, or none. */
export function pageStateOf(hash: string): string {
  return hash.startsWith('#!') ? hash.slice(2) : '';
}

/**
 * The query string without its `_escaped_fragment_` parameters, every other
 * parameter as it was written (not re-encoded: the key keeps the query as
 * given); empty pairs are dropped too (`/?&_escaped_fragment_=`).
 */
function withoutEscapedFragment(search: string): string {
  const kept = search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !new URLSearchParams(pair).has(ESCAPED_FRAGMENT));
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}
