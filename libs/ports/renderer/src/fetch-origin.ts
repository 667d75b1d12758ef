import { fetch, type Dispatcher, type Response } from 'undici';
import { isRedirect } from '@bpc/cache-store';
import { EgressRefused, publicLocation } from '@bpc/egress';
import { MAX_PAGE_BYTES, PageFailure, type FetchedPage } from './fetched-page';
import { storedHeaders, unstorableStatus } from './refresh-rules';

export interface OriginFetch {
  /** The URL to fetch (already rewritten to the origin). */
  readonly url: URL;
  /** The public page URL, for redirect locations that name the origin. */
  readonly publicUrl: URL;
  readonly userAgent: string;
  readonly signal: AbortSignal;
  /** Connects only where the host's egress rules allow (`checkedDispatcher`). */
  readonly dispatcher: Dispatcher;
}

/**
 * `bypass` mode: one plain HTTP request to the origin, bounded by the signal.
 * It connects through the request's checked dispatcher: an internal address
 * (other than the host's configured origin) fails it (`refused: …`).
 * Redirects are not followed: a 3xx is stored as it is, with its Location,
 * and nothing is requested from its target.
 * The body is stored decoded (fetch undoes the content encoding).
 * Throws `PageFailure` for answers not worth storing (see `unstorableStatus`,
 * an empty body other than a redirect's) and for a body that decodes to more
 * than `MAX_PAGE_BYTES`.
 */
export async function fetchOrigin(request: OriginFetch): Promise<FetchedPage> {
  const response = await fetch(request.url, {
    redirect: 'manual',
    signal: request.signal,
    dispatcher: request.dispatcher,
    headers: { 'user-agent': request.userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
  }).catch((error: Error) => {
    if (error.cause instanceof EgressRefused) throw new PageFailure(`refused: ${error.cause.message}`);
    throw error;
  });
  const body = await readBody(response, MAX_PAGE_BYTES);
  const unstorable = unstorableStatus(response.status);
  if (unstorable) throw new PageFailure(unstorable);
  const raw: Record<string, string> = {};
  response.headers.forEach((value, name) => (raw[name] = value));
  if (raw.location) raw.location = publicLocation(raw.location, request.url, request.publicUrl);
  const page: FetchedPage = { statusCode: response.status, headers: storedHeaders(raw), body };
  if (body.length === 0 && !isRedirect(page)) throw new PageFailure(`empty body (status ${response.status})`);
  return page;
}

/** The decoded body, read chunk by chunk so that at most `limit` bytes are ever held. */
async function readBody(response: Response, limit: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > limit) {
      const failure = new PageFailure(`body larger than ${limit / (1024 * 1024)} MiB`);
      // Cancelling a fetch body aborts the fetch: the connection is closed, the rest is neither downloaded nor decoded.
      await reader.cancel(failure).catch(() => undefined);
      throw failure;
    }
    chunks.push(value);
  }
}
