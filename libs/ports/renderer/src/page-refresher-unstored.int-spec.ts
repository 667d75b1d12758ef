import path from 'node:path';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog } from '@bpc/domain';
import { mountSmallFilesystem, SmallFilesystem, TestOrigin, whyNoSmallFilesystem } from '@bpc/testing';
import { ChromiumTabPool } from './chromium-tab-pool';
import { CachingPageRefresher } from './page-refresher';
import { FileObjectStore } from '@bpc/object-store';

const cannotMount = whyNoSmallFilesystem();
if (cannotMount) process.stdout.write(`page-refresher-unstored.int-spec skipped: ${cannotMount}\n`);

/** A real origin, the real fetch and a real file cache store on a tmpfs that fills up (bypass: Chromium is never started). */
(cannotMount ? describe.skip : describe)('a page the cache store cannot take (a full disk)', () => {
  let fs: SmallFilesystem;
  let origin: TestOrigin;
  let store: FileCacheStore;
  let refresher: CachingPageRefresher;
  const job = { hostId: 1, url: 'https://www.example.test/page', dimensionId: 1 };
  const refresh = () => refresher.refresh(job, { signal: AbortSignal.timeout(10_000), purpose: 'online' });

  beforeAll(async () => {
    fs = mountSmallFilesystem(1);
    origin = new TestOrigin((p, hit) => ({ status: 200, body: `<html><title>v${hit}</title><body>${p} v${hit}</body></html>` }));
    const catalog = new HostCatalog([
      { host_id: 1, hostnames: ['www.example.test'], origin: await origin.start(), cache_ttl: 3600, dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'bypass' }], url_rules: [] },
    ]);
    store = await FileCacheStore.open({ directory: path.join(fs.dir, 'cache'), objects: new FileObjectStore(fs.dir), bodyRemovalDelayMs: 0 });
    refresher = new CachingPageRefresher({ catalog, store, pool: new ChromiumTabPool({ tabs: 1, reservationPercent: 0 }) });
  });

  afterAll(async () => {
    await refresher?.close();
    await store?.close();
    await origin?.stop();
    fs?.unmount();
  });

  it('is a failed refresh carrying the page, the entry left as it was; once space is back it is stored', async () => {
    expect(await refresh()).toMatchObject({ kind: 'stored', cacheKind: 'bypass' });
    await fs.fill();
    const outcome = await refresh();
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^the page could not be stored: .*ENOSPC/) });
    const unstored = outcome.kind === 'failed' ? outcome.unstored : undefined;
    expect(unstored).toMatchObject({ cacheKind: 'bypass', page: { statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' } } });
    expect(unstored!.page.body.toString()).toBe('<html><title>v2</title><body>/page v2</body></html>');
    expect((await (await store.get(1, job.url, 1))!.readBody()).toString()).toContain('v1');

    await fs.free();
    expect(await refresh()).toMatchObject({ kind: 'stored' });
    expect((await (await store.get(1, job.url, 1))!.readBody()).toString()).toContain('v3');
  });
});
