import type { StoredHeaders } from '@bpc/cache-store';

/** A page as produced by a render or an origin fetch, ready to store. */
export interface FetchedPage {
  readonly statusCode: number;
  /** Headers to keep; a redirect's `location` already points to the public host. */
  readonly headers: StoredHeaders;
  readonly body: Buffer;
  /** True when the status is the page's own (`prerender-status-code`), not the origin's answer. */
  readonly statusSignalled?: boolean;
}

/**
 * Largest page body produced, in bytes: an origin answer as decoded (a small
 * gzip body can decode to gigabytes) or a render's serialised HTML. A larger
 * page fails rather than being held in memory and stored.
 */
export const MAX_PAGE_BYTES = 16 * 1024 * 1024;

/** The page could not be produced (timeout, network error, empty render …); the message is the reason reported. */
export class PageFailure extends Error {
  override readonly name = 'PageFailure';
}

/** The browser produced a page without content (an empty body): never cached; last-good protection keeps a good entry over it (`blank`). */
export class BlankRender extends PageFailure {}

/** The reason a render or fetch failed, in a few words for events and logs; a timeout says what the page was doing when known. */
export function failureReason(error: unknown, signal: AbortSignal): string {
  if (error instanceof PageFailure && error.message.startsWith('timed out')) return error.message;
  if (signal.aborted) return 'timed out';
  if (error instanceof PageFailure) return error.message;
  return errorSummary(error);
}

/** The first line of an error's message, at most 300 characters. */
export function errorSummary(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 300);
}

/**
 * Rejects as soon as `signal` aborts, for steps that take no signal themselves. The step goes on; its own
 * failure later (e.g. a navigation stopped when the tab closes) is then nobody's, and is dropped here rather
 * than becoming an unhandled rejection (fatal to the apps).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(new PageFailure('timed out'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new PageFailure('timed out'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
