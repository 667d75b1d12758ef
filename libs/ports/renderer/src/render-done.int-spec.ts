import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog, type HostDefinition } from '@bpc/domain';
import { ChromiumTabPool } from './chromium-tab-pool';
import { startDoneTestOrigin, type DoneTestOrigin } from '@bpc/testing';
import { CachingPageRefresher } from './page-refresher';
import type { RefreshJob } from './page-refresher.port';
import { FileObjectStore } from '@bpc/object-store';

/**
 * When a render is done (long-lived requests, `window.prerenderReady`, a page
 * that never goes quiet) and what a tab kept between renders of a host must
 * not carry over: real Chromium (2 tabs), a real loopback origin, a real file
 * cache store.
 */
describe('when a render is done, and tabs kept between renders', () => {
  let origin: DoneTestOrigin;
  let directory: string;
  let store: FileCacheStore;
  let pool: ChromiumTabPool;
  let refresher: CachingPageRefresher;

  beforeAll(async () => {
    origin = await startDoneTestOrigin();
    directory = mkdtempSync(path.join(tmpdir(), 'bpc-render-done-'));
    store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
    const host = (host_id: number, render?: HostDefinition['render']): HostDefinition => ({
      host_id,
      hostnames: [`site${host_id}.example.test`],
      origin: origin.url,
      cache_ttl: 3600,
      dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'render' }],
      url_rules: [],
      render,
    });
    const hosts = [host(1, { quiet_ms: 300, long_request_ms: 1000, prerender_ready: true }), host(2), host(3), host(4, { quiet_ms: 300, long_request_ms: 1000, prerender_ready: false })];
    pool = new ChromiumTabPool({ tabs: 2, reservationPercent: 0 });
    refresher = new CachingPageRefresher({ catalog: new HostCatalog(hosts), store, pool });
  });

  afterAll(async () => {
    await refresher?.close();
    await store?.close();
    await origin?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const job = (hostId: number, pathname: string): RefreshJob => ({ hostId, url: `https://site${hostId}.example.test${pathname}`, dimensionId: 1 });
  const refresh = (j: RefreshJob, timeoutMs = 15_000) => refresher.refresh(j, { signal: AbortSignal.timeout(timeoutMs), purpose: 'recache' });
  const body = async (j: RefreshJob) => (await (await store.get(j.hostId, j.url, j.dimensionId))!.readBody()).toString();

  it.each([
    ['a long poll', '/long-poll'],
    ['an EventSource', '/event-source'],
    ['a WebSocket', '/websocket'],
    ['a beacon never answered', '/beacon'],
  ])('renders a page that keeps %s open, once the rest is quiet', async (_name, pathname) => {
    const outcome = await refresh(job(1, pathname));
    expect(outcome).toMatchObject({ kind: 'stored', statusCode: 200 });
    expect(await body(job(1, pathname))).toContain('built by script');
  });

  it('waits while the page holds window.prerenderReady false, and takes the page once it is true', async () => {
    expect(await refresh(job(1, '/prerender-ready'))).toMatchObject({ kind: 'stored' });
    expect(await body(job(1, '/prerender-ready'))).toContain('ready at last');
  });

  it('fails a page that keeps window.prerenderReady false at the timeout, saying so; a host that turned the check off takes it', async () => {
    expect(await refresh(job(1, '/never-ready'), 2500)).toMatchObject({ kind: 'failed', reason: 'timed out: the page kept window.prerenderReady false' });
    expect(await refresh(job(4, '/never-ready'))).toMatchObject({ kind: 'stored' });
    expect(await body(job(4, '/never-ready'))).toContain('built by script');
  });

  it('keeps a tab for the host and gives the next render nothing of the last one: cookies, storage, service workers, caches, window.name, history', async () => {
    const write = await refresh(job(2, '/isolation/write'));
    expect(write).toMatchObject({ kind: 'stored' });
    expect(await body(job(2, '/isolation/write'))).toContain('written');
    expect(pool.keptTabs()).toBeGreaterThanOrEqual(1);
    const kept = pool.keptTabs();
    const cssFetches = origin.hits.filter((h) => h.path === '/cached.css').length;

    expect(await refresh(job(2, '/isolation/read'))).toMatchObject({ kind: 'stored' });
    // The same tab served the host again (no new one was opened) …
    expect(pool.keptTabs()).toBe(kept);
    // … and found nothing of the page before it.
    const found = JSON.parse(/found (\{[^<]*\})/.exec(await body(job(2, '/isolation/read')))![1].replaceAll('&quot;', '"'));
    // history: the page and the blank page the tab waited on (a new tab's first page replaces its blank one).
    expect(found).toEqual({ cookie: '', local: 0, session: 0, name: '', databases: 0, caches: 0, serviceWorkers: 0, history: 2 });
    // The stylesheet came from the origin again, not from the HTTP cache.
    expect(origin.hits.filter((h) => h.path === '/cached.css').length).toBe(cssFetches + 1);
  });

  it('keeps at most one tab per slot: another host takes the least recently used one', async () => {
    await refresh(job(2, '/event-source'));
    await refresh(job(3, '/event-source'));
    await refresh(job(4, '/event-source'));
    expect(pool.keptTabs()).toBe(2);
    expect(pool.capacity().freeTabs).toBe(2);
  });
});
