import type { CacheStatus } from '@bpc/events';

export interface EdgeAnswer {
  readonly statusCode: number;
  /** Complete, `content-length` included. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** How the page was served; absent when the request never reached the cache (refused before, or failed unexpectedly). */
  readonly cacheStatus?: CacheStatus;
}

/** Stable codes of the edge's own (non-page) answers. */
export type EdgeErrorCode = 'UNAUTHENTICATED' | 'INVALID_URL' | 'NOT_FOUND' | 'UNVERIFIED_BOT' | 'RENDER_TIMEOUT' | 'RENDER_FAILED' | 'UNAVAILABLE';

/**
 * What a bot is told of each error: a fixed sentence per code, never an
 * internal detail (a disk error, an origin's address); the detail is in the
 * log line carrying the same request id.
 */
const ERROR_MESSAGES: Readonly<Record<EdgeErrorCode, string>> = {
  UNAUTHENTICATED: 'missing or unknown X-Prerender-Token',
  INVALID_URL: 'the request path must be / followed by an absolute http(s) page URL',
  NOT_FOUND: "the page URL's host is not a host of this website",
  UNVERIFIED_BOT: 'the request is not from the crawler its User-Agent names',
  RENDER_TIMEOUT: 'the page was not rendered in time; try again later',
  RENDER_FAILED: 'the page could not be rendered; try again later',
  UNAVAILABLE: 'the page cannot be served right now; try again later',
};

/** An error answer of the edge: `{ code, message, requestId }` as JSON (the code's generic message), the request id in `X-Request-Id` too. */
export function problem(statusCode: number, code: EdgeErrorCode, requestId: string): EdgeAnswer & { headers: Record<string, string> } {
  const body = Buffer.from(JSON.stringify({ code, message: ERROR_MESSAGES[code], requestId }));
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length), 'x-request-id': requestId };
  return { statusCode, headers, body };
}
