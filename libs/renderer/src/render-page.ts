import type { HTTPRequest, Page } from 'puppeteer-core';
import { PageFailure, untilAborted, type FetchedPage } from './fetched-page';
import { publicLocation, storedHeaders, unstorableStatus, type Emulation } from './refresh-rules';

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

/** The document with its doctype, as the browser holds it after the scripts ran; '' when the body is empty. */
const SERIALISE = `(() => {
  const body = document.body;
  if (!body || body.innerHTML.trim() === '') return '';
  const d = document.doctype;
  const doctype = d ? '<!DOCTYPE ' + d.name + (d.publicId ? ' PUBLIC "' + d.publicId + '"' : '') + (!d.publicId && d.systemId ? ' SYSTEM' : '') + (d.systemId ? ' "' + d.systemId + '"' : '') + '>\\n' : '';
  return doctype + document.documentElement.outerHTML;
})()`;

/**
 * `render` mode: loads the page in a tab emulating the dimension's bot and
 * waits until it settles: the load event and no network request for 500 ms
 * (puppeteer's `networkidle0`), so content fetched by scripts is in. The
 * wait is bounded only by the signal: a page that never settles (e.g. long
 * polling) times out and fails rather than being stored half-built.
 *
 * The stored status is the main response's; when the navigation was
 * redirected, the first redirect is stored (status + Location) as a bot
 * would have seen it. Throws `PageFailure` for transient origin errors and
 * for an empty body.
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
  const unstorable = unstorableStatus(response.status());
  if (unstorable) throw new PageFailure(unstorable);
  const html = await untilAborted(page.evaluate(SERIALISE) as Promise<string>, signal);
  if (!html) throw new PageFailure(`empty render (status ${response.status()})`);
  // The HTML is re-serialised by the browser and stored as UTF-8, whatever the origin's charset was.
  const headers = { ...storedHeaders(response.headers()), 'content-type': 'text/html; charset=utf-8' };
  delete (headers as Record<string, string>).location;
  return { statusCode: response.status(), headers, body: Buffer.from(html, 'utf8') };
}
