import type { HTTPRequest, Page } from 'puppeteer-core';
import { MAX_PAGE_BYTES, PageFailure, untilAborted, type FetchedPage } from './fetched-page';
import { publicLocation, signalledStatus, storedHeaders, unstorableStatus, type Emulation, type PageSignals } from './refresh-rules';

export interface PageRender {
  /** The URL to load (already rewritten to the origin). */
  readonly url: URL;
  /** The public page URL, for redirect locations that name the origin. */
  readonly publicUrl: URL;
  readonly emulation: Emulation;
  readonly signal: AbortSignal;
}

/** Resource types a bot's HTML does not depend on: not loaded, so renders are faster and lighter. */
const SKIPPED_RESOURCES = new Set(['image', 'media', 'font']);

/** The prerender meta tags the page holds after its scripts ran (see `signalledStatus`). */
const SIGNALS = `(() => ({
  statusCode: document.querySelector('meta[name="prerender-status-code" i]')?.getAttribute('content') ?? null,
  headers: [...document.querySelectorAll('meta[name="prerender-header" i]')].map((m) => m.getAttribute('content') ?? ''),
}))()`;

/**
 * The document with its doctype, as the browser holds it after the scripts ran; '' when the body is empty;
 * null when it has more UTF-16 units than `MAX_PAGE_BYTES` (each takes at least one UTF-8 byte), so that
 * an oversized page is never sent over the DevTools connection.
 */
const SERIALISE = `(() => {
  const body = document.body;
  if (!body || body.innerHTML.trim() === '') return '';
  const d = document.doctype;
  const doctype = d ? '<!DOCTYPE ' + d.name + (d.publicId ? ' PUBLIC "' + d.publicId + '"' : '') + (!d.publicId && d.systemId ? ' SYSTEM' : '') + (d.systemId ? ' "' + d.systemId + '"' : '') + '>\\n' : '';
  const html = doctype + document.documentElement.outerHTML;
  return html.length > ${MAX_PAGE_BYTES} ? null : html;
})()`;

/**
 * `render` mode: loads the page in a tab emulating the dimension's bot and
 * waits until it settles: the load event and no network request for 500 ms
 * (puppeteer's `networkidle0`), so content fetched by scripts is in. The
 * wait is bounded only by the signal: a page that never settles (e.g. long
 * polling) times out and fails rather than being stored half-built.
 *
 * The stored status is the main response's, unless the page sets another
 * with `<meta name="prerender-status-code">` (see `signalledStatus`); when
 * the navigation was redirected, the first redirect is stored (status +
 * Location) as a bot would have seen it. Throws `PageFailure` for transient origin errors, for
 * an empty body and for HTML larger than `MAX_PAGE_BYTES`.
 */
export async function renderPage(page: Page, request: PageRender): Promise<FetchedPage> {
  const { emulation, signal } = request;
  await page.setUserAgent(emulation.userAgent);
  await page.setViewport(emulation.viewport);
  await page.setRequestInterception(true);
  page.on('request', (intercepted: HTTPRequest) => {
    if (intercepted.isInterceptResolutionHandled()) return;
    void (SKIPPED_RESOURCES.has(intercepted.resourceType()) ? intercepted.abort('blockedbyclient') : intercepted.continue()).catch(() => undefined);
  });
  // A modal dialog would block the page until the deadline.
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));

  // Raced rather than given the signal: puppeteer's own `signal` option did not stop a navigation waiting for a silent origin.
  // Losing the race leaves the navigation running until the pool closes the tab's context.
  const response = await untilAborted(page.goto(request.url.toString(), { waitUntil: ['load', 'networkidle0'], timeout: 0 }), signal);
  if (!response) throw new PageFailure('no main response');
  const redirect = response.request().redirectChain()[0]?.response();
  if (redirect) {
    const location = redirect.headers().location;
    if (location) {
      return {
        statusCode: redirect.status(),
        headers: { location: publicLocation(location, new URL(redirect.url()), request.publicUrl) },
        body: Buffer.alloc(0),
      };
    }
  }
  // The origin's own failure stands whatever the page says: a 5xx page must not replace a good entry.
  const failed = unstorableStatus(response.status());
  if (failed) throw new PageFailure(failed);
  const signalled = signalledStatus(await untilAborted(page.evaluate(SIGNALS) as Promise<PageSignals>, signal), request.publicUrl);
  const statusCode = signalled?.statusCode ?? response.status();
  if (unstorableStatus(statusCode)) throw new PageFailure(`the page signalled ${statusCode}`);
  // Scripts ran at the origin's address: a Location naming it is pointed back to the public host, as a redirect's is.
  if (signalled?.location) return { statusCode, headers: { location: publicLocation(signalled.location, request.url, request.publicUrl) }, body: Buffer.alloc(0) };
  const html = await untilAborted(page.evaluate(SERIALISE) as Promise<string | null>, signal);
  if (html === null) throw renderTooLarge();
  if (!html) throw new PageFailure(`empty render (status ${response.status()})`);
  // The HTML is re-serialised by the browser and stored as UTF-8, whatever the origin's charset was.
  const body = Buffer.from(html, 'utf8');
  if (body.length > MAX_PAGE_BYTES) throw renderTooLarge();
  const headers = { ...storedHeaders(response.headers()), 'content-type': 'text/html; charset=utf-8' };
  delete (headers as Record<string, string>).location;
  return { statusCode, headers, body };
}

function renderTooLarge(): PageFailure {
  return new PageFailure(`render larger than ${MAX_PAGE_BYTES / (1024 * 1024)} MiB`);
}
