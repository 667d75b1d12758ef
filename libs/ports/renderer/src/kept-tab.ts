import type { BrowserContext, CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import { untilAborted } from './fetched-page';

/** Renders one tab serves at most before it is replaced (bounds what a long-lived renderer process accumulates). */
export const MAX_RENDERS_PER_TAB = 100;

/**
 * One render tab in its own browser context, kept between renders of the
 * same host so that its renderer process is reused (measured in the render
 * bench: 0.64 × a plain render's CPU with a new context and tab per render,
 * 0.34–0.47 × keeping them). Between renders
 * it is cleaned (`clean`): nothing a page stored or set survives into the
 * next render.
 */
export class KeptTab {
  renders = 0;
  lastUsedAt = 0;
  /** Its renderer process died (a page crashed it): the tab cannot serve again. */
  crashed = false;
  /** Origins of the documents the tab loaded since it was last cleaned: whose storage to clear. */
  private readonly documentOrigins = new Set<string>();

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly session: CDPSession,
    /** Which renders may use this tab (a host's). */
    readonly affinity: string,
  ) {
    const record = (request: HTTPRequest): void => {
      if (request.resourceType() === 'document') this.recordOrigin(request.url());
    };
    page.on('request', record);
    page.on('error', () => (this.crashed = true));
    // A popup is closed at once, but its document may have loaded and stored something by then.
    page.on('popup', (popup) => popup?.on('request', record));
  }

  static async open(context: BrowserContext, affinity: string): Promise<KeptTab> {
    const page = await context.newPage();
    const session = await page.createCDPSession();
    return new KeptTab(context, page, session, affinity);
  }

  /**
   * Makes the tab as a new one would be for the next render: the page is
   * unloaded (timers, connections and workers stop), and the context's
   * cookies, the storage of every origin a document of the tab came from
   * (local and session storage, IndexedDB, Cache Storage, service workers …),
   * the HTTP cache, the navigation history and any popup are gone. Throws
   * when the tab cannot be cleaned; the caller then closes it.
   */
  async clean(signal: AbortSignal): Promise<void> {
    const bounded = <T>(step: Promise<T>): Promise<T> => untilAborted(step, signal);
    const pages = await bounded(this.context.pages());
    // Documents now open (a popup's first one may have loaded before its requests were seen).
    for (const page of pages) for (const frame of page.frames()) this.recordOrigin(frame.url());
    await bounded(this.page.goto('about:blank', { waitUntil: 'load', timeout: 0 }));
    const origins = [...this.documentOrigins];
    this.documentOrigins.clear();
    await bounded(
      Promise.all([
        ...origins.map((origin) => this.session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })),
        this.session.send('Network.clearBrowserCookies'),
        this.session.send('Network.clearBrowserCache'),
        this.session.send('Page.resetNavigationHistory'),
        // window.name outlives same-site navigations of a tab.
        this.page.evaluate('window.name = ""'),
        ...pages.filter((page) => page !== this.page).map((popup) => popup.close()),
      ]),
    );
  }

  private recordOrigin(url: string): void {
    const origin = originOf(url);
    if (origin) this.documentOrigins.add(origin);
  }

  close(): Promise<void> {
    return this.context.close().catch(() => undefined);
  }
}

function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
