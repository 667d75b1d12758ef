import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog, type HostDefinition } from '@bpc/domain';
import { settlesBefore, until } from '@bpc/testing';
import { startBadPageOrigin, type BadPageOrigin } from '@bpc/testing';
import { ChromiumTabPool, type TabPool } from './chromium-tab-pool';
import { openTargets, type OpenTargets } from './chromium-open-targets';
import { CachingPageRefresher } from './page-refresher';
import type { RefreshJob, RefreshOutcome } from './page-refresher.port';
import { FileObjectStore } from '@bpc/object-store';

const PUBLIC = 'https://www.example.test';
const TABS = 2;
/** The render timeout of a page that never ends by itself: what ends it is this timeout. */
const NEVER_ENDING_TIMEOUT_MS = 5_000;
/**
 * The render timeout of every other render: good pages, and bad pages that end by themselves with their own reason (they
 * leave, they are too large). Long enough for a loaded two-core machine, where a plain page took up to 5 s and the
 * 50 MB one 16 s to be measured.
 */
const RENDER_TIMEOUT_MS = 20_000;
/** Generous, for a loaded machine: a render that hangs goes on far past it (to the test's own 60 s). */
const LATE_BY_MS = 15_000;

/**
 * Hostile pages (issue 33, "Bad input") through the whole render path: a
 * real Chromium (2 tabs), a real origin on loopback that serves each URL's
 * good page first and its bad page next, and a real file cache store. Each
 * bad page must end within its timeout with a reason, give its tab back
 * with nothing left open in the browser, and leave the good entry stored
 * before it as it was.
 */
describe('bad pages end within their timeout, with a reason, and leave nothing behind', () => {
  let origin: BadPageOrigin;
  let directory: string;
  let store: FileCacheStore;
  let pool: ChromiumTabPool;
  let catalog: HostCatalog;
  let refresher: CachingPageRefresher;
  /** What the browser holds open between renders (its own first tab), seen after the first render. */
  let idle: OpenTargets;

  beforeAll(async () => {
    origin = await startBadPageOrigin();
    directory = mkdtempSync(path.join(tmpdir(), 'bpc-bad-pages-'));
    store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
    const host: HostDefinition = {
      host_id: 1,
      hostnames: ['www.example.test'],
      origin: origin.url,
      cache_ttl: 3600,
      dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'render' }],
      url_rules: [],
    };
    pool = new ChromiumTabPool({ tabs: TABS, reservationPercent: 0 });
    catalog = new HostCatalog([host]);
    refresher = new CachingPageRefresher({ catalog, store, pool });
  });

  afterAll(async () => {
    await refresher?.close();
    await store?.close();
    await origin?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const job = (pathname: string): RefreshJob => ({ hostId: 1, url: `${PUBLIC}${pathname}`, dimensionId: 1 });
  const refresh = (pathname: string, timeoutMs: number) => refresher.refresh(job(pathname), { signal: AbortSignal.timeout(timeoutMs), purpose: 'recache' });
  const stored = async (pathname: string) => {
    const hit = await store.get(1, `${PUBLIC}${pathname}`, 1);
    return hit && { entry: hit.entry, body: (await hit.readBody()).toString() };
  };

  /** Renders and stores the URL's good page: what its bad page must not replace. */
  async function storeGoodPage(pathname: string) {
    origin.serve('good');
    expect(await refresh(pathname, RENDER_TIMEOUT_MS)).toMatchObject({ kind: 'stored', statusCode: 200 });
    const good = await stored(pathname);
    expect(good!.body).toContain('good page');
    return good;
  }

  /** Renders the URL's bad page; it must come back soon after its timeout, well before a hang would. */
  async function renderBadPage(pathname: string, timeoutMs = NEVER_ENDING_TIMEOUT_MS): Promise<RefreshOutcome> {
    origin.serve('bad');
    const rendering = refresh(pathname, timeoutMs);
    expect(await settlesBefore(rendering, timeoutMs + LATE_BY_MS)).toBe(true);
    return rendering;
  }

  /** Every tab back in the pool, and no tab, popup or context left in the browser but the tabs the pool keeps for the host. */
  async function nothingLeftOpen(): Promise<void> {
    await until(() => pool.capacity().freeTabs === TABS, { what: `all ${TABS} tabs back in the pool` });
    const pid = pool.browserPid()!;
    const expected = (): OpenTargets => ({ contexts: pool.keptTabs(), pages: idle.pages - idle.contexts + pool.keptTabs() });
    await until(
      () => openTargets(pid),
      (open) => open.contexts === expected().contexts && open.pages === expected().pages,
      { what: () => `the browser holding only ${JSON.stringify(expected())}` },
    );
  }

  it('renders a good page and then holds no context open but the one tab it keeps for the host', async () => {
    await storeGoodPage('/good');
    idle = await openTargets(pool.browserPid()!);
    expect(pool.keptTabs()).toBe(1);
    expect(idle.contexts).toBe(1);
    expect(pool.capacity().freeTabs).toBe(TABS);
  });

  it('fails a page that is never network-quiet (a fetch every 100 ms) as timed out, saying why, keeping the good entry', async () => {
    const good = await storeGoodPage('/never-quiet');
    const ticksBefore = origin.hits.filter((hit) => hit.startsWith('/tick')).length;
    expect(await renderBadPage('/never-quiet')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^timed out: the page kept (loading|making requests)/) });
    // The page did run and keep the network busy; it was not merely slow to start.
    expect(origin.hits.filter((hit) => hit.startsWith('/tick')).length - ticksBefore).toBeGreaterThan(3);
    await nothingLeftOpen();
    expect(await stored('/never-quiet')).toEqual(good);
  });

  it('fails a page whose script never yields (an endless loop after load) as timed out, and gets the spinning tab back', async () => {
    const good = await storeGoodPage('/busy-loop');
    expect(await renderBadPage('/busy-loop')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^timed out/) });
    await nothingLeftOpen();
    expect(await stored('/busy-loop')).toEqual(good);
  });

  it('fails a page that crashes its tab, gives the tab back, keeps the good entry, and renders the next page on the same browser', async () => {
    const good = await storeGoodPage('/crash');
    const browser = pool.browserPid();
    expect(await renderBadPage('/crash')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^the page crashed its tab/) });
    await nothingLeftOpen();
    expect(await stored('/crash')).toEqual(good);
    // Only the tab's renderer died: the browser goes on and the pool renders again.
    await storeGoodPage('/good');
    expect(pool.browserPid()).toBe(browser);
  });

  it('renders a page that opens popups (script, target=_blank click) and dialogs (alert, confirm, prompt, beforeunload), leaving none open', async () => {
    origin.serve('bad');
    expect(await refresh('/popups', RENDER_TIMEOUT_MS)).toMatchObject({ kind: 'stored', statusCode: 200 });
    // Dialogs are dismissed: alert returns, confirm says no, prompt gives nothing.
    expect((await stored('/popups'))!.body).toContain('<div id="out">popup blocked, dialogs answered undefined false null</div>');
    await nothingLeftOpen();
  });

  // A popup's page shares the opener's renderer: its dialog would block the page too. The popup blocker stops it opening.
  it('renders a page whose popup would show a dialog: the popup is blocked', async () => {
    origin.serve('bad');
    expect(await refresh('/popup-dialog', RENDER_TIMEOUT_MS)).toMatchObject({ kind: 'stored', statusCode: 200 });
    expect((await stored('/popup-dialog'))!.body).toContain('<div id="out">popup blocked</div>');
    await nothingLeftOpen();
  });

  it('fails a page that navigates to another host after load as navigated away, keeping the good entry', async () => {
    const good = await storeGoodPage('/leaves');
    expect(await renderBadPage('/leaves', RENDER_TIMEOUT_MS)).toMatchObject({ kind: 'failed', reason: 'navigated away (to http://other.test)' });
    await nothingLeftOpen();
    expect(await stored('/leaves')).toEqual(good);
    expect(origin.hits.filter((hit) => hit === '/leaves')).toHaveLength(2);
  });

  it('fails a page that builds about 50 MB of markup as too large, keeping the good entry', async () => {
    const good = await storeGoodPage('/huge-dom');
    expect(await renderBadPage('/huge-dom', RENDER_TIMEOUT_MS)).toMatchObject({ kind: 'failed', reason: 'render larger than 16 MiB' });
    await nothingLeftOpen();
    expect(await stored('/huge-dom')).toEqual(good);
  });

  it('ends a page that lays out about 50 MB of markup within its timeout, keeping the good entry', async () => {
    const good = await storeGoodPage('/huge-laid-out-dom');
    // Layout alone takes longer than the timeout on most machines; on a fast one the size check may end it first.
    expect(await renderBadPage('/huge-laid-out-dom')).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^(timed out|render larger than 16 MiB)/) });
    await nothingLeftOpen();
    expect(await stored('/huge-laid-out-dom')).toEqual(good);
  });

  // Under load a render's time may run out just as its tab is ready: the steps it started then must fail quietly.
  it('leaves no unhandled rejection behind when the timeout ends just as the tab is ready', async () => {
    const ended = new AbortController();
    let tab: Page | undefined;
    // The real pool, with the render's signal ended right before the render starts on its tab.
    const endingPool: TabPool = {
      withTab: (request, work) =>
        pool.withTab(request, (page) => {
          tab = page;
          ended.abort();
          return work(page);
        }),
      capacity: () => pool.capacity(),
      close: async () => undefined,
    };
    const late = new CachingPageRefresher({ catalog, store, pool: endingPool });
    expect(await late.refresh(job('/good'), { signal: ended.signal, purpose: 'recache' })).toMatchObject({ kind: 'failed', reason: 'timed out' });
    await nothingLeftOpen();
    // The navigation's promise settles once puppeteer sees the tab's frame go; a turn later, an unhandled rejection is reported.
    await until(() => tab!.mainFrame().detached, { what: "the closed tab's frame detached" });
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('renders a good page after all of them, with every tab back in the pool', async () => {
    await storeGoodPage('/good');
    await nothingLeftOpen();
    expect(pool.capacity()).toMatchObject({ tabs: TABS, freeTabs: TABS });
  });
});
