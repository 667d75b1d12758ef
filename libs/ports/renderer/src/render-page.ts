import type { Dialog, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import { assertNever } from '@bpc/domain';
import { EGRESS_REFUSED_HEADER, type EgressRules, publicLocation } from '@bpc/egress';
import { BlankRender, MAX_PAGE_BYTES, PageFailure, untilAborted, type FetchedPage } from './fetched-page';
import { signalledStatus, storedHeaders, unstorableStatus, type Emulation, type PageSignals } from './refresh-rules';
import { judgeRenderRequest } from './render-request-guard';
import { watchPageActivity, type PageActivityWatch } from './settle/page-activity';
import type { SettleRules } from './settle/settle-rules';
import { waitUntilSettled } from './settle/wait-until-settled';

export interface PageRender {
  /** The URL to load (already rewritten to the origin). */
  readonly url: URL;
  /** The public page URL, for redirect locations that name the origin. */
  readonly publicUrl: URL;
  readonly emulation: Emulation;
  /** The host's egress rules (the same the tab's proxy enforces). */
  readonly egress: EgressRules;
  /** When the page is done (the host's `render` settings). */
  readonly settle: SettleRules;
  readonly signal: AbortSignal;
}

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
  // An element child means content; only text is checked, so a huge body is not serialised twice.
  if (!body || (!body.firstElementChild && (body.textContent ?? '').trim() === '')) return '';
  const d = document.doctype;
  const doctype = d ? '<!DOCTYPE ' + d.name + (d.publicId ? ' PUBLIC "' + d.publicId + '"' : '') + (!d.publicId && d.systemId ? ' SYSTEM' : '') + (d.systemId ? ' "' + d.systemId + '"' : '') + '>\\n' : '';
  const html = doctype + document.documentElement.outerHTML;
  return html.length > ${MAX_PAGE_BYTES} ? null : html;
})()`;

/**
 * `render` mode: loads the page in a tab emulating the dimension's bot and
 * waits until it is done by the host's rules (`waitUntilSettled`: the load
 * event, then the network quiet for a while, long-lived requests such as an
 * EventSource, a WebSocket or a long poll not holding it, then
 * `window.prerenderReady`), so content fetched by scripts is in. A page never
 * done before the signal fails with what it was still doing, rather than
 * being stored half-built.
 *
 * The stored status is the main response's, unless the page sets another
 * with `<meta name="prerender-status-code">` (see `signalledStatus`); when
 * the navigation was redirected, the first redirect is stored (status +
 * Location) as a bot would have seen it, and its target is never requested. Throws `PageFailure`
 * for transient origin errors, for an empty body, for HTML larger than `MAX_PAGE_BYTES`, and when
 * the page's main frame tries to leave its host (`navigated away`: script, meta refresh, timer).
 * Every request of the tab is judged before it leaves (`judgeRenderRequest`). The page may be a
 * tab kept from an earlier render of the host: every listener added here is removed before returning.
 */
export async function renderPage(page: Page, request: PageRender): Promise<FetchedPage> {
  const { emulation } = request;
  await page.setUserAgent(emulation.userAgent);
  await page.setViewport(emulation.viewport);
  await page.setRequestInterception(true);
  const guard = guardRequests(page, request);
  const activity = watchPageActivity(page);
  // A modal dialog would block the page until the deadline; a popup is not part of the page.
  const onDialog = (dialog: Dialog): void => void dialog.dismiss().catch(() => undefined);
  const onPopup = (popup: Page | null): void => void popup?.close().catch(() => undefined);
  // A tab whose renderer process dies settles none of puppeteer's pending calls: the crash ends the render.
  let onCrash: (error: Error) => void = () => undefined;
  const crashed = new Promise<never>((_resolve, reject) => {
    onCrash = (error) => reject(new PageFailure(`the page crashed its tab (${error.message})`));
  });
  page.on('dialog', onDialog);
  page.on('popup', onPopup);
  page.on('error', onCrash);
  try {
    return await Promise.race([loadAndRead(page, request, guard, activity), crashed]);
  } finally {
    guard.dispose();
    activity.dispose();
    page.off('dialog', onDialog);
    page.off('popup', onPopup);
    page.off('error', onCrash);
  }
}

async function loadAndRead(page: Page, request: PageRender, guard: RequestGuard, activity: PageActivityWatch): Promise<FetchedPage> {
  const { signal } = request;
  // Raced rather than given the signal: puppeteer's own `signal` option did not stop a navigation waiting for a silent origin.
  // Losing the race leaves the navigation running until the pool closes or cleans the tab.
  const response = await untilAborted(page.goto(request.url.toString(), { waitUntil: 'load', timeout: 0 }), signal).catch((error: Error) => {
    // Stopping the origin's redirect aborts the navigation: the redirect is the page.
    if (guard.originRedirect) return undefined;
    guard.assertStayed();
    throw error;
  });
  if (guard.originRedirect) return redirectPage(guard.originRedirect, request.publicUrl);
  guard.assertStayed();
  if (!response) throw new PageFailure('no main response');
  if (response.headers()[EGRESS_REFUSED_HEADER]) throw new PageFailure(`refused: ${request.url.host} is not allowed`);
  // The origin's own failure stands whatever the page says: a 5xx page must not replace a good entry.
  const failed = unstorableStatus(response.status());
  if (failed) throw new PageFailure(failed);
  activity.loaded();
  await waitUntilSettled(page, activity, request.settle, signal).catch((error: unknown) => {
    // A navigation refused while the page loaded says more than the time it then took.
    guard.assertStayed();
    throw error;
  });
  guard.assertStayed();
  const signalled = signalledStatus(await untilAborted(page.evaluate(SIGNALS) as Promise<PageSignals>, signal), request.publicUrl);
  const statusCode = signalled?.statusCode ?? response.status();
  if (unstorableStatus(statusCode)) throw new PageFailure(`the page signalled ${statusCode}`);
  // Scripts ran at the origin's address: a Location naming it is pointed back to the public host, as a redirect's is.
  if (signalled?.location) return { statusCode, headers: { location: publicLocation(signalled.location, request.url, request.publicUrl) }, body: Buffer.alloc(0) };
  const html = await untilAborted(page.evaluate(SERIALISE) as Promise<string | null>, signal);
  // A navigation refused while the page was read: what was read may be the page, but the page wanted to be elsewhere.
  guard.assertStayed();
  if (html === null) throw renderTooLarge();
  if (!html) throw new BlankRender(`empty render (status ${response.status()})`);
  // The HTML is re-serialised by the browser and stored as UTF-8, whatever the origin's charset was.
  const body = Buffer.from(html, 'utf8');
  if (body.length > MAX_PAGE_BYTES) throw renderTooLarge();
  const headers = { ...storedHeaders(response.headers()), 'content-type': 'text/html; charset=utf-8' };
  delete (headers as Record<string, string>).location;
  return { statusCode, headers, body, statusSignalled: signalled !== undefined };
}

interface RequestGuard {
  /** The origin's redirect answer to the page, once seen. */
  readonly originRedirect: HTTPResponse | undefined;
  /** Throws `navigated away` once the main frame tried to leave the page's host. */
  assertStayed(): void;
  /** Stops judging (the tab may serve another render). */
  dispose(): void;
}

/** Judges every request of the tab before it leaves, and remembers what the render's outcome depends on. */
function guardRequests(page: Page, request: PageRender): RequestGuard {
  let mainNavigations = 0;
  let originRedirect: HTTPResponse | undefined;
  let navigatedAway: string | undefined;
  const judge = (intercepted: HTTPRequest): void => {
    if (intercepted.isInterceptResolutionHandled()) return;
    const mainFrameNavigation = intercepted.isNavigationRequest() && intercepted.frame() === page.mainFrame();
    const redirected = intercepted.redirectChain().length > 0;
    if (mainFrameNavigation && !redirected) mainNavigations += 1;
    const verdict = judgeRenderRequest(
      { url: intercepted.url(), resourceType: intercepted.resourceType(), mainFrameNavigation, redirected, initialNavigation: mainNavigations <= 1 },
      request.url,
      request.egress,
    );
    switch (verdict.kind) {
      case 'continue':
        return void intercepted.continue().catch(() => undefined);
      case 'skip':
      case 'refuse':
        return void intercepted.abort('blockedbyclient').catch(() => undefined);
      case 'origin-redirect':
        originRedirect ??= intercepted.redirectChain()[0].response() ?? undefined;
        return void intercepted.abort('blockedbyclient').catch(() => undefined);
      case 'navigated-away':
        navigatedAway ??= verdict.reason;
        return void intercepted.abort('blockedbyclient').catch(() => undefined);
      default:
        return assertNever(verdict);
    }
  };
  page.on('request', judge);
  return {
    get originRedirect() {
      return originRedirect;
    },
    assertStayed() {
      if (navigatedAway) throw new PageFailure(`navigated away (${navigatedAway})`);
    },
    dispose() {
      page.off('request', judge);
    },
  };
}

/** The origin's redirect as bots see it: its status, and its Location pointing to the public host when it named the origin. */
function redirectPage(redirect: HTTPResponse, publicUrl: URL): FetchedPage {
  const location = redirect.headers().location;
  if (!location) throw new PageFailure(`redirect ${redirect.status()} without a Location`);
  return { statusCode: redirect.status(), headers: { location: publicLocation(location, new URL(redirect.url()), publicUrl) }, body: Buffer.alloc(0) };
}

function renderTooLarge(): PageFailure {
  return new PageFailure(`render larger than ${MAX_PAGE_BYTES / (1024 * 1024)} MiB`);
}
