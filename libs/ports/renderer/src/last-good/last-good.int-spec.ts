import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog, type HostDefinition } from '@bpc/domain';
import { TestOrigin } from '@bpc/testing';
import { ChromiumTabPool } from '../chromium-tab-pool';
import { CachingPageRefresher } from '../page-refresher';
import { FileObjectStore } from '@bpc/object-store';

/** One version of a page the origin serves; the test moves each path from version to version. */
type Version = 'good' | 'soft-404' | 'not-found-title' | 'cut-short' | 'shell' | 'slow' | 'empty';

const article = `<main><h1>Pricing</h1>${'<p>Plans, prices and everything a bot should index about them.</p>'.repeat(60)}</main>`;
const pages: Record<Version, string> = {
  good: `<html><head><title>Pricing</title></head><body>${article}</body></html>`,
  // The single-page app's own "not found" view: it says 404 the prerender way.
  'soft-404': `<html><head><title>Pricing</title></head><body><p>No such page</p><script>document.head.insertAdjacentHTML('beforeend', '<meta name="prerender-status-code" content="404">')</script></body></html>`,
  'not-found-title': `<html><head><title>Page not found</title></head><body><p>Sorry.</p></body></html>`,
  // An API the page calls failed: the shell rendered, its content did not.
  'cut-short': `<html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>Loading plans failed.</p></main></body></html>`,
  // The app never mounted: nothing visible.
  shell: `<html><head><title>Pricing</title></head><body><div id="root"></div><script>/* bundle failed to load */</script></body></html>`,
  slow: '',
  // The origin answered an empty document: the browser's body has nothing at all.
  empty: '',
};

/** Real Chromium, a real origin and a real file cache store: a good render, then broken ones that must keep it. */
describe('last-good protection through the real refresher', () => {
  const PUBLIC = 'https://www.example.test';
  const current = new Map<string, Version>();
  let origin: TestOrigin;
  let directory: string;
  let store: FileCacheStore;
  let refresher: CachingPageRefresher;

  beforeAll(async () => {
    origin = new TestOrigin((p) => {
      const version = current.get(p) ?? 'good';
      if (version === 'slow') return { status: 200, body: pages.good, delayMs: 5_000 };
      return { status: 200, body: pages[version] };
    });
    directory = mkdtempSync(path.join(tmpdir(), 'bpc-last-good-'));
    store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
    const host: HostDefinition = {
      host_id: 1,
      hostnames: ['www.example.test'],
      origin: await origin.start(),
      cache_ttl: 3600,
      dimensions: [
        { id: 1, name: 'desktop', match: { fallback: true }, action: 'render' },
        { id: 2, name: 'raw', match: { user_agent: 'raw', fallback: false }, action: 'bypass' },
      ],
      url_rules: [],
    };
    refresher = new CachingPageRefresher({ catalog: new HostCatalog([host]), store, pool: new ChromiumTabPool({ tabs: 1, reservationPercent: 0 }) });
  });

  afterAll(async () => {
    await refresher?.close();
    await store?.close();
    await origin?.stop();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const job = (pathname: string, dimensionId = 1) => ({ hostId: 1, url: `${PUBLIC}${pathname}`, dimensionId });
  const refresh = (pathname: string, dimensionId = 1, timeoutMs = 20_000) => refresher.refresh(job(pathname, dimensionId), { signal: AbortSignal.timeout(timeoutMs), purpose: 'recache' });
  const cachedBody = async (pathname: string, dimensionId = 1) => (await (await store.get(1, `${PUBLIC}${pathname}`, dimensionId))!.readBody()).toString();

  it('keeps the good render when the page then signals 404 (soft 404), and stores its soft 404 when it never had a good one', async () => {
    expect(await refresh('/soft')).toMatchObject({ kind: 'stored', statusCode: 200 });
    current.set('/soft', 'soft-404');
    expect(await refresh('/soft')).toMatchObject({
      kind: 'kept',
      reason: 'soft-404',
      mode: 'render',
      statusCode: 404,
      detail: 'the page signalled 404 (prerender-status-code) where the cached page is 200',
    });
    expect(await cachedBody('/soft')).toContain('Plans, prices');

    current.set('/new-soft', 'soft-404');
    expect(await refresh('/new-soft')).toMatchObject({ kind: 'stored', statusCode: 404 });
  }, 60_000);

  it('keeps the good render over a small page titled "Page not found"', async () => {
    expect(await refresh('/titled')).toMatchObject({ kind: 'stored' });
    current.set('/titled', 'not-found-title');
    expect(await refresh('/titled')).toMatchObject({ kind: 'kept', reason: 'soft-404', statusCode: 200 });
  }, 60_000);

  it('keeps the good render over one far smaller, and over a blank one; a page back to normal is stored again', async () => {
    const first = await refresh('/pricing');
    expect(first).toMatchObject({ kind: 'stored' });
    current.set('/pricing', 'cut-short');
    const smaller = await refresh('/pricing');
    expect(smaller).toMatchObject({ kind: 'kept', reason: 'smaller', detail: "under 30% of the last good page's size", statusCode: 200 });
    expect(smaller.kind === 'kept' && first.kind === 'stored' && smaller.bytes < 0.3 * first.bytes).toBe(true);
    current.set('/pricing', 'shell');
    expect(await refresh('/pricing')).toMatchObject({ kind: 'kept', reason: 'blank', detail: 'no visible text' });
    expect(await cachedBody('/pricing')).toContain('Plans, prices');
    current.set('/pricing', 'good');
    expect(await refresh('/pricing')).toMatchObject({ kind: 'stored' });
  }, 60_000);

  it('keeps the good render over an empty document (blank), and fails an empty first render', async () => {
    expect(await refresh('/emptied')).toMatchObject({ kind: 'stored' });
    current.set('/emptied', 'empty');
    expect(await refresh('/emptied')).toMatchObject({ kind: 'kept', reason: 'blank', detail: 'no visible text', bytes: 0 });
    expect(await cachedBody('/emptied')).toContain('Plans, prices');
    current.set('/never-filled', 'empty');
    expect(await refresh('/never-filled')).toMatchObject({ kind: 'failed', reason: 'empty render (status 200)' });
  }, 60_000);

  it('fails a blank first render rather than caching it', async () => {
    current.set('/blank', 'shell');
    expect(await refresh('/blank')).toMatchObject({ kind: 'failed', reason: 'blank page: no visible text', mode: 'render', entryKept: false });
    expect(await store.get(1, `${PUBLIC}/blank`, 1)).toBeUndefined();
  }, 60_000);

  it('says when a timed-out fetch left an entry in place', async () => {
    expect(await refresh('/timeout', 2)).toMatchObject({ kind: 'stored', cacheKind: 'bypass' });
    current.set('/timeout', 'slow');
    expect(await refresh('/timeout', 2, 500)).toMatchObject({ kind: 'failed', mode: 'bypass', timedOut: true, entryKept: true });
    current.set('/timeout-new', 'slow');
    expect(await refresh('/timeout-new', 2, 500)).toMatchObject({ kind: 'failed', timedOut: true, entryKept: false });
  }, 60_000);
});
