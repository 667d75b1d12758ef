import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { silentLog, type LogSink } from '@bpc/support';
import { AddressPolicy, EgressProxy, type EgressRules, type Resolvers } from '@bpc/egress';
import type { TabCapacity } from './page-refresher.port';
import { PageFailure } from './fetched-page';
import { KeptTab, MAX_RENDERS_PER_TAB } from './kept-tab';
import { TabSlots, type TabPurpose } from './tab-slots';

/** Flags for a headless Chromium on a server: no sandbox (containers), no GPU, no background traffic, /tmp instead of a small /dev/shm. */
export const HEADLESS_SERVER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
] as const;

/** The renderer's flags: a server's, tuned for renders (below), and no way out but the egress proxy (see `chromiumEgressArgs`). */
export const CHROMIUM_ARGS = [
  ...HEADLESS_SERVER_ARGS,
  // A kept tab navigates between renders: the page it leaves must not live on in the back/forward cache.
  '--disable-back-forward-cache',
  // Every browser context (one per render tab) otherwise gets its own renderer process for the address bar's
  // suggestion popups (chrome://omnibox-popup.top-chrome), which a headless render never shows: measured, they
  // cost about 40 % of a plain render's CPU time.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
] as const;

/** The browser's proxy, which each render's context overrides with the proxy of its host's rules. */
const PROXY_BYPASS = ['<-loopback>'];

/**
 * Every connection through `proxyUrl`: `<-loopback>` removes Chromium's
 * implicit proxy bypass for localhost and loopback addresses; the browser
 * resolves no name itself (the proxy does, and checks the address); WebRTC
 * may not send UDP outside the proxy (STUN/TURN to internal addresses).
 */
function chromiumEgressArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    `--proxy-bypass-list=${PROXY_BYPASS.join(';')}`,
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

/** One render's claim on a tab. */
export interface TabRequest {
  readonly purpose: TabPurpose;
  /** Ends the wait for a tab and the work. */
  readonly signal: AbortSignal;
  /** Ends the wait for a tab, when sooner. */
  readonly waitSignal?: AbortSignal;
  /** Where the render's requests may go (the host's). */
  readonly egress: EgressRules;
  /** Renders with the same affinity (a host's) may run in a tab kept from an earlier one, cleaned in between. */
  readonly affinity: string;
}

export interface ChromiumTabPoolOptions {
  /** Default `/usr/bin/chromium`. */
  readonly executablePath?: string;
  /** Renders at once (`render_service.tabs`). */
  readonly tabs: number;
  /** Share of tabs reserved for online renders (`render_service.reservation_percent`). */
  readonly reservationPercent: number;
  readonly log?: LogSink;
  /** Give up starting the browser after this long (default 30 s). */
  readonly launchTimeoutMs?: number;
  /** What the browser itself may reach outside any render (the renders' own rules come with each `TabRequest`). */
  readonly addresses?: AddressPolicy;
  /** How the egress proxies resolve names (default: DNS for pages' names, the system for trusted origins). */
  readonly resolvers?: Resolvers;
  /** A kept tab unused this long (ms) is closed, freeing its renderer process (default 30 s). */
  readonly keptTabIdleMs?: number;
}

/** Longest the cleaning of a tab between two renders may take before the tab is closed instead. */
const CLEAN_TIMEOUT_MS = 3000;

/** Something that lends browser tabs; the page refresher depends on this, not on Chromium. */
export interface TabPool {
  /**
   * Runs `work` on a tab for the request's purpose, waiting for a tab the
   * purpose may use (bounded by its signals): a tab kept from an earlier
   * render with the same affinity (cleaned: nothing of the earlier page is
   * left), else a new one in a new browser context. Every request of the tab
   * goes through the egress proxy of the request's rules. A tab whose work
   * timed out or broke is closed, whatever it was doing.
   */
  withTab<T>(request: TabRequest, work: (page: Page) => Promise<T>): Promise<T>;
  capacity(): TabCapacity;
  close(): Promise<void>;
}

/**
 * One headless Chromium with `tabs` render slots (see `TabSlots` for the
 * online reservation). The browser starts with the first render, so apps that
 * never render do not pay for it; when it crashes or exits, the renders in
 * flight fail and the next render starts a new one. Each tab has its own
 * browser context (an incognito-like profile) and serves one host: it is kept
 * after a render for the host's next render (`KeptTab`, cleaned in between),
 * at most `tabs` at once, the least recently used closed first when another
 * host needs one, any unused for `keptTabIdleMs` closed. Each context's connections go
 * through an `EgressProxy` for its host's rules, started on first use and
 * kept for the pool's life (one per distinct trusted origin, plus the strict
 * one the browser itself is started with).
 */
export class ChromiumTabPool implements TabPool {
  private readonly slots: TabSlots;
  private readonly log: LogSink;
  private readonly profileRemovals = new Set<Promise<void>>();
  private readonly proxies = new Map<string, Promise<EgressProxy>>();
  /** Tabs kept for a next render, least recently used first. */
  private kept: KeptTab[] = [];
  private readonly idleSweep: NodeJS.Timeout;
  private browser: Promise<Browser> | undefined;
  private pid: number | undefined;
  private closed = false;

  constructor(private readonly options: ChromiumTabPoolOptions) {
    this.slots = new TabSlots(options.tabs, options.reservationPercent);
    this.log = options.log ?? silentLog;
    const idleMs = options.keptTabIdleMs ?? 30_000;
    this.idleSweep = setInterval(() => this.closeIdleTabs(idleMs), Math.min(idleMs, 5000)).unref();
  }

  async withTab<T>(request: TabRequest, work: (page: Page) => Promise<T>): Promise<T> {
    const { purpose, signal, waitSignal } = request;
    this.assertOpen();
    const slot = await this.slots.acquire(purpose, waitSignal ? AbortSignal.any([signal, waitSignal]) : signal);
    let tab: KeptTab | undefined;
    let reusable = false;
    try {
      this.assertOpen();
      tab = await this.tabFor(request);
      const result = await work(tab.page);
      reusable = true;
      return result;
    } catch (error) {
      // A page that failed on its own (an origin error, a refused navigation) leaves a usable tab; a timeout may leave a hung one.
      reusable = error instanceof PageFailure && !signal.aborted;
      throw error;
    } finally {
      if (tab) await this.keepOrClose(tab, reusable);
      this.slots.release(slot);
    }
  }

  /** Tabs kept open for a next render (the browser contexts the pool holds, besides those rendering). */
  keptTabs(): number {
    return this.kept.length;
  }

  capacity(): TabCapacity {
    return this.slots.capacity();
  }

  /** Process id of the running browser, undefined before the first render and after a crash. */
  browserPid(): number | undefined {
    return this.pid;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.idleSweep);
    await Promise.all(this.kept.splice(0).map((tab) => tab.close()));
    const browser = await this.browser?.catch(() => undefined);
    await browser?.close().catch(() => browser.process()?.kill('SIGKILL'));
    await Promise.all([...this.profileRemovals]);
    await Promise.all([...this.proxies.values()].map((proxy) => proxy.then((p) => p.close()).catch(() => undefined)));
  }

  /** A kept tab of the request's affinity, else a new one (closing the least recently used kept tab when all `tabs` are open). */
  private async tabFor(request: TabRequest): Promise<KeptTab> {
    const index = this.kept.findLastIndex((tab) => tab.affinity === request.affinity);
    if (index >= 0) return this.kept.splice(index, 1)[0];
    const rendering = this.options.tabs - this.slots.capacity().freeTabs;
    if (this.kept.length > 0 && this.kept.length + rendering > this.options.tabs) await this.kept.shift()?.close();
    const [browser, proxy] = await Promise.all([this.started(), this.proxyFor(request.egress)]);
    const context = await browser.createBrowserContext({ proxyServer: proxy.url, proxyBypassList: PROXY_BYPASS });
    try {
      return await KeptTab.open(context, request.affinity);
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /** After a render: the tab is cleaned and kept for the host's next render, or closed. */
  private async keepOrClose(tab: KeptTab, reusable: boolean): Promise<void> {
    tab.renders += 1;
    if (reusable && !tab.crashed && !this.closed && tab.renders < MAX_RENDERS_PER_TAB && tab.context.browser().connected) {
      try {
        await tab.clean(AbortSignal.timeout(CLEAN_TIMEOUT_MS));
        tab.lastUsedAt = performance.now();
        this.kept.push(tab);
        return;
      } catch (error) {
        this.log.info({ err: (error as Error).message }, 'render tab could not be cleaned; closing it');
      }
    }
    // Closing the context closes its tab and stops whatever the page was still loading.
    await tab.close();
  }

  private closeIdleTabs(idleMs: number): void {
    const now = performance.now();
    const idle = this.kept.filter((tab) => now - tab.lastUsedAt >= idleMs);
    if (idle.length === 0) return;
    this.kept = this.kept.filter((tab) => !idle.includes(tab));
    for (const tab of idle) void tab.close();
  }

  /** The proxy enforcing `rules`, started on first use; a failed start is not kept. */
  private proxyFor(rules: EgressRules): Promise<EgressProxy> {
    const key = rules.trustedOrigin?.origin ?? '';
    let proxy = this.proxies.get(key);
    if (!proxy) {
      proxy = EgressProxy.start({ rules, log: this.log, resolvers: this.options.resolvers });
      this.proxies.set(key, proxy);
      proxy.catch(() => this.proxies.delete(key));
    }
    return proxy;
  }

  /** The profile directory goes once the process has exited (earlier, Chromium may still be writing into it). */
  private removeProfileOnExit(browser: Browser, userDataDir: string): void {
    const child = browser.process();
    const exited = child && child.exitCode === null && child.signalCode === null ? new Promise<void>((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
    const removal = exited
      .then(() => rm(userDataDir, { recursive: true, force: true, maxRetries: 3 }))
      .catch((error: Error) => this.log.warn({ userDataDir, err: error.message }, 'chromium profile directory left behind'))
      .finally(() => this.profileRemovals.delete(removal));
    this.profileRemovals.add(removal);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('chromium tab pool is closed');
  }

  /** The running browser, started on first use and again after a crash; concurrent callers share one start. */
  private started(): Promise<Browser> {
    if (!this.browser) {
      const starting = this.launch();
      this.browser = starting;
      // A failed start is not kept: the next render tries again.
      starting.catch(() => {
        if (this.browser === starting) this.browser = undefined;
      });
    }
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    const executablePath = this.options.executablePath ?? '/usr/bin/chromium';
    // The browser's own connections (outside any render's context) get the strictest rules.
    const strictProxy = await this.proxyFor({ addresses: this.options.addresses ?? new AddressPolicy() });
    const userDataDir = await mkdtemp(path.join(tmpdir(), 'bpc-chromium-'));
    const startedAt = Date.now();
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath,
        headless: true,
        args: [...CHROMIUM_ARGS, ...chromiumEgressArgs(strictProxy.url)],
        userDataDir,
        timeout: this.options.launchTimeoutMs ?? 30_000,
        // Bounds any single browser command (e.g. closing a context of a hung page) well below puppeteer's 180 s default.
        protocolTimeout: 30_000,
        // Chromium's popup blocker stays on (puppeteer turns it off by default): a page's script opens no window,
        // so no popup's dialog can block the page's renderer, and no popup escapes the tab's cleaning.
        ignoreDefaultArgs: ['--disable-popup-blocking'],
        // The app owns shutdown (close()); puppeteer must not kill the browser on signals behind its back.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      await rm(userDataDir, { recursive: true, force: true });
      this.log.error({ executablePath, err: (error as Error).message }, 'chromium failed to start');
      throw new Error(`chromium failed to start (${executablePath}): ${(error as Error).message}`, { cause: error });
    }
    const pid = browser.process()?.pid;
    this.pid = pid;
    this.log.info({ executablePath, pid, ms: Date.now() - startedAt }, 'chromium started');
    this.removeProfileOnExit(browser, userDataDir);
    browser.once('disconnected', () => {
      if (this.pid === pid) this.pid = undefined;
      this.kept = this.kept.filter((tab) => tab.context.browser() !== browser);
      if (this.closed) return;
      this.browser = undefined;
      this.log.warn({ pid }, 'chromium exited unexpectedly; the next render starts a new one');
    });
    if (this.closed) {
      await browser.close();
      throw new Error('chromium tab pool is closed');
    }
    return browser;
  }
}
