import { performance } from 'node:perf_hooks';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { isLongLivedType, type OpenRequest, type PageActivity } from './settle-rules';

/** The requests of one render's page as the browser reports them (not as the page's busy main thread would), and when it loaded. */
export interface PageActivityWatch {
  activity(): PageActivity;
  /** Called after every change (a request started or ended, the load event). */
  onChange(listener: () => void): void;
  /** The render's navigation reached its load event (told by the navigation itself: a page event could be a late one of the tab's previous page). */
  loaded(): void;
  /** Stops watching; the page is kept for the next render. */
  dispose(): void;
}

/** Starts watching `page` (before it navigates, so that nothing is missed). Times are `performance.now()`. */
export function watchPageActivity(page: Page): PageActivityWatch {
  const open = new Map<HTTPRequest, OpenRequest>();
  let loadedAt: number | undefined;
  let lastActivityAt = performance.now();
  let changed: () => void = () => undefined;
  const onRequest = (request: HTTPRequest): void => {
    if (isLongLivedType(request.resourceType())) return;
    lastActivityAt = performance.now();
    open.set(request, { url: request.url(), startedAt: lastActivityAt });
    changed();
  };
  const onEnded = (request: HTTPRequest): void => {
    if (!open.delete(request)) return;
    lastActivityAt = performance.now();
    changed();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onEnded);
  page.on('requestfailed', onEnded);
  return {
    activity: () => ({ loadedAt, lastActivityAt, open: open.values() }),
    onChange: (listener) => {
      changed = listener;
    },
    loaded: () => {
      loadedAt ??= performance.now();
      changed();
    },
    dispose: () => {
      page.off('request', onRequest);
      page.off('requestfinished', onEnded);
      page.off('requestfailed', onEnded);
      changed = () => undefined;
    },
  };
}
