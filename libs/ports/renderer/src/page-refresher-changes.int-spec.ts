import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog } from '@bpc/domain';
import { TestOrigin } from '@bpc/testing';
import { ChromiumTabPool } from './chromium-tab-pool';
import { CachingPageRefresher } from './page-refresher';
import { renderFactOf } from './render-facts';
import { FileObjectStore } from '@bpc/object-store';

/** A real origin whose page changes between fetches, the real fetch and a real file cache store (bypass: Chromium is never started). */
describe('changes between a page and the entry it replaces', () => {
  let dir: string;
  let origin: TestOrigin;
  let store: FileCacheStore;
  let refresher: CachingPageRefresher;
  /** What the origin answers next: its robots meta. */
  let robots = '';
  const job = { hostId: 1, url: 'https://www.example.test/pricing', dimensionId: 1 };
  const refresh = () => refresher.refresh(job, { signal: AbortSignal.timeout(10_000), purpose: 'online' });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bpc-changes-'));
    origin = new TestOrigin(() => ({ status: 200, body: `<html><head><title>Pricing</title>${robots}</head><body><h1>Pricing</h1><p>Plans and prices</p></body></html>` }));
    const catalog = new HostCatalog([
      { host_id: 1, hostnames: ['www.example.test'], origin: await origin.start(), cache_ttl: 3600, dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'bypass' }], url_rules: [] },
    ]);
    store = await FileCacheStore.open({ directory: path.join(dir, 'cache'), objects: new FileObjectStore(dir), bodyRemovalDelayMs: 0 });
    refresher = new CachingPageRefresher({ catalog, store, pool: new ChromiumTabPool({ tabs: 1, reservationPercent: 0 }) });
  });

  afterAll(async () => {
    await refresher?.close();
    await store?.close();
    await origin?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('reports none for a first render, the change when noindex appears (recorded with the render), none when nothing changed', async () => {
    const first = await refresh();
    expect(first).toMatchObject({ kind: 'stored' });
    expect(first).not.toHaveProperty('changes');

    robots = '<meta name="ROBOTS" content="NoIndex">';
    const second = await refresh();
    expect(second).toMatchObject({ kind: 'stored', changes: [{ field: 'noindex', before: 'false', after: 'true', severity: 'critical' }] });
    expect(renderFactOf(second, 'give-up', 'bypass')).toMatchObject({ outcome: 'stored', changes: [{ field: 'noindex', severity: 'critical' }] });
    expect((await store.get(1, job.url, 1))!.entry.facts).toMatchObject({ noindexBy: ['robots'] });

    const third = await refresh();
    expect(third).toMatchObject({ kind: 'stored' });
    expect(third).not.toHaveProperty('changes');
    expect(renderFactOf(third, 'give-up', 'bypass')).not.toHaveProperty('changes');
  });
});
