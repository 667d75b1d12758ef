import { pageStateOf } from '@bpc/domain';

/**
 * Where to fetch a page: the public URL with scheme, host and port replaced by
 * the host's origin, or without one by `https://<the page's hostname>` (the
 * default port: a port in a bot's URL must not pick which service of the
 * customer's host is fetched). A `#!` fragment (a page state, see
 * `normalizeHttpUrl`) is kept: the browser loads the page and its own script
 * reads the state from it; neither a browser nor an origin fetch sends it.
 */
export function originUrl(publicUrl: URL, origin: string | undefined): URL {
  return onOrigin(origin ? new URL(origin).origin : `https://${publicUrl.hostname}`, publicUrl, { hash: pageStateOf(publicUrl.hash) !== '' });
}

/**
 * A redirect's Location as bots should see it: resolved against the URL
 * fetched, and pointing back to the public host when it named the origin.
 */
export function publicLocation(location: string, fetchedUrl: URL, publicUrl: URL): string {
  const resolved = new URL(location, fetchedUrl);
  if (resolved.origin === fetchedUrl.origin && fetchedUrl.origin !== publicUrl.origin) {
    return onOrigin(publicUrl.origin, resolved, { hash: true }).toString();
  }
  return resolved.toString();
}

/**
 * `origin` (scheme, host and port only) with the path and query of `source`.
 * They are assigned, never resolved as a reference against the origin: a path
 * such as `//other-host/x` would read as protocol-relative and leave the origin.
 * Built anew rather than by setting `host` on `source`: that setter keeps an
 * old port when the origin has none.
 */
function onOrigin(origin: string, source: URL, keep: { hash: boolean }): URL {
  const url = new URL(origin);
  url.pathname = source.pathname;
  url.search = source.search;
  if (keep.hash) url.hash = source.hash;
  return url;
}
