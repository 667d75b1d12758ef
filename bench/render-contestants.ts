import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type BrowserContext } from 'puppeteer-core';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog, type HostDefinition, type PageFacts } from '@bpc/domain';
import { CachingPageRefresher, ChromiumTabPool, HEADLESS_SERVER_ARGS } from '@bpc/renderer';
import { FileObjectStore } from '@bpc/object-store';

/** A renderer under measurement in the `render` bench. */
export interface RenderContestant {
  readonly name: string;
  /** Renders page `n` of the bench origin: undefined when it produced a page, else why not (never throws). */
  render(n: number): Promise<string | undefined>;
  /** The HTML page `n`'s render produced (read after the measured phases, so not counted). */
  output(n: number): Promise<string | undefined>;
  /** The browser's process id, once it runs. */
  browserPid(): number | undefined;
  close(): Promise<void>;
}

export const CHROMIUM = '/usr/bin/chromium';
/** Bounds one render, as the daemon's recache deadline does. */
export const RENDER_TIMEOUT_MS = 30_000;


/**
 * The baseline: what a plain puppeteer pre-renderer does (and what measured
 * at parity with the `prerender` server in issue 33): a server's headless flags without the renderer's tuning, a
 * fresh incognito context per page, `goto` until network-idle, `content()`,
 * the context closed.
 */
export async function plainChromium(originUrl: string): Promise<RenderContestant> {
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: [...HEADLESS_SERVER_ARGS], protocolTimeout: RENDER_TIMEOUT_MS });
  const outputs = new Map<number, string>();
  return {
    name: 'plain Chromium',
    async render(n) {
      let context: BrowserContext | undefined;
      try {
        context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.goto(`${originUrl}/p/${n}`, { waitUntil: 'networkidle0', timeout: RENDER_TIMEOUT_MS });
        outputs.set(n, await page.content());
        return undefined;
      } catch (error) {
        return (error as Error).message;
      } finally {
        await context?.close().catch(() => undefined);
      }
    },
    output: async (n) => outputs.get(n),
    browserPid: () => browser.process()?.pid,
    close: () => browser.close(),
  };
}

const PUBLIC_ORIGIN = 'https://www.bench.test';

/** What a render bench page's facts look like (about their size), for the renderer with facts reading skipped. */
const SKIPPED_FACTS: PageFacts = {
  statusCode: 200, bytes: 30_000, soft404: false, title: 'Bench page', titleLength: 10, description: 'A page of the render bench', lang: 'en', h1Count: 1, firstH1: 'Bench page',
  canonical: null, canonicals: [], noindexBy: [], nofollowBy: [], hreflangCount: 0, hreflangOffSite: 0, ogTitle: false, ogImage: false,
  jsonLdTypes: [], jsonLdBlocks: 0, jsonLdInvalid: 0, microdataTypes: [], wordCount: 400, internalLinks: 20, externalLinks: 0, imagesWithoutAlt: 0,
};

/**
 * Our renderer through its public API only (constructors, `refresh`,
 * `close`, the pool's `browserPid`), so that changes inside it do not break
 * the bench: one host whose origin is the bench origin, rendered as its
 * fallback dimension into a file cache store in a temporary directory, as
 * recache renders (no tab reserved for online ones).
 */
export async function ourRenderer(originUrl: string, tabs: number, facts: 'read' | 'skipped' = 'read'): Promise<RenderContestant> {
  const directory = await mkdtemp(path.join(tmpdir(), 'bpc-bench-render-'));
  const store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
  const host: HostDefinition = {
    host_id: 1,
    hostnames: [new URL(PUBLIC_ORIGIN).hostname],
    origin: originUrl,
    cache_ttl: 3600,
    dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'render' }],
    url_rules: [],
  };
  const pool = new ChromiumTabPool({ executablePath: CHROMIUM, tabs, reservationPercent: 0 });
  // Facts skipped: every page gets the same facts (stored and compared as usual), so the A/B isolates reading them.
  const readFacts = facts === 'skipped' ? (): PageFacts => SKIPPED_FACTS : undefined;
  const refresher = new CachingPageRefresher({ catalog: new HostCatalog([host]), store, pool, readFacts });
  const job = (n: number) => ({ hostId: host.host_id, url: `${PUBLIC_ORIGIN}/p/${n}`, dimensionId: 1 });
  return {
    name: facts === 'read' ? 'our renderer' : 'our renderer, facts skipped',
    async render(n) {
      const outcome = await refresher.refresh(job(n), { signal: AbortSignal.timeout(RENDER_TIMEOUT_MS), purpose: 'recache' });
      if (outcome.kind === 'stored') return outcome.cacheKind === 'render' ? undefined : `stored a ${outcome.cacheKind}`;
      return outcome.kind === 'failed' ? outcome.reason : outcome.kind;
    },
    async output(n) {
      const { hostId, url, dimensionId } = job(n);
      const hit = await store.get(hostId, url, dimensionId);
      return hit && (await hit.readBody()).toString('utf8');
    },
    browserPid: () => pool.browserPid(),
    async close() {
      await refresher.close();
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
