import { isRedirect } from '@bpc/cache-store';
import { PageFailure, type FetchedPage } from './fetched-page';
import { publicLocation, storedHeaders, unstorableStatus } from './refresh-rules';

export interface OriginFetch {
  /** The URL to fetch (already rewritten to the origin). */
  readonly url: URL;
  /** The public page URL, for redirect locations that name the origin. */
  readonly publicUrl: URL;
  readonly userAgent: string;
  readonly signal: AbortSignal;
}

/**
 * `bypass` mode: one plain HTTP request to the origin, bounded by the signal.
 * Redirects are not followed: a 3xx is stored as it is, with its Location.
 * The body is stored decoded (fetch undoes the content encoding).
 * Throws `PageFailure` for answers not worth storing (see `unstorableStatus`,
 * an empty body other than a redirect's).
 */
export async function fetchOrigin(request: OriginFetch): Promise<FetchedPage> {
  const response = await fetch(request.url, {
    redirect: 'manual',
    signal: request.signal,
    headers: { 'user-agent': request.userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
  });
  const body = Buffer.from(await response.arrayBuffer());
  const unstorable = unstorableStatus(response.status);
  if (unstorable) throw new PageFailure(unstorable);
  const raw: Record<string, string> = {};
  response.headers.forEach((value, name) => (raw[name] = value));
  if (raw.location) raw.location = publicLocation(raw.location, request.url, request.publicUrl);
  const page: FetchedPage = { statusCode: response.status, headers: storedHeaders(raw), body };
  if (body.length === 0 && !isRedirect(page)) throw new PageFailure(`empty body (status ${response.status})`);
  return page;
}
