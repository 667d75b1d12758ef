import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog, type HostDefinition } from '@bpc/domain';
import { ChromiumTabPool } from './chromium-tab-pool';
import { CachingPageRefresher } from './page-refresher';
import type { RefreshJob } from './page-refresher.port';
import { DESKTOP_BOT_USER_AGENT, MOBILE_BOT_USER_AGENT } from './refresh-rules';
import { until } from '@bpc/testing';
import { startScriptedPageOrigin, type ScriptedPageOrigin } from '@bpc/testing';
import { FileObjectStore } from '@bpc/object-store';

/**
 * Real Chromium (one browser for the whole file, 2 tabs, 50 % reserved),
 * a real HTTP origin on loopback and a real file cache store.
 */
describe('renderer against a real origin and a real Chromium', () => {
  const PUBLIC = 'https://www.example.test';
  let origin: ScriptedPageOrigin;
  let directory: string;
  let store: FileCacheStore;
  let pool: ChromiumTabPool;
  let refresher: CachingPageRefresher;
  let now = Date.now();
  const clock = { now: () => now };

  beforeAll(async () => {
    origin = await startScriptedPageOrigin();
    directory = mkdtempSync(path.join(tmpdir(), 'bpc-renderer-'));
    store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
    const host: HostDefinition = {
      host_id: 1,
      hostnames: ['www.example.test'],
      origin: origin.url,
      cache_ttl: 3600,
      dimensions: [
        { id: 1, name: 'desktop', match: { fallback: true }, action: 'render' },
        { id: 2, name: 'mobile', match: { user_agent: 'android', fallback: false }, action: 'bypass' },
      ],
      url_rules: [{ pattern: '^/missing', action: 'render', cache_ttl: 60 }],
    };
    pool = new ChromiumTabPool({ tabs: 2, reservationPercent: 50 });
    refresher = new CachingPageRefresher({ catalog: new HostCatalog([host]), store, pool, clock });
  });

  afterAll(async () => {
    await refresher?.close();
    await store?.close();
    await origin?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const job = (pathAndQuery: string, overrides: Partial<RefreshJob> = {}): RefreshJob => ({ hostId: 1, url: `${PUBLIC}${pathAndQuery}`, dimensionId: 1, ...overrides });
  const refresh = (j: RefreshJob, purpose: 'recache' | 'online' = 'recache', timeoutMs = 20_000) => refresher.refresh(j, { signal: AbortSignal.timeout(timeoutMs), purpose });
  const stored = async (j: RefreshJob) => {
    const hit = await store.get(j.hostId, j.url, j.dimensionId);
    return hit && { entry: hit.entry, body: (await hit.readBody()).toString() };
  };
  const hitsOf = (p: string) => origin.hits.filter((h) => h.path === p);

  it('starts Chromium only with the first render', () => {
    expect(pool.browserPid()).toBeUndefined();
    expect(refresher.capacity()).toEqual({ tabs: 2, freeTabs: 2, reservedForOnline: 1, availableForRecache: 1 });
  });

  it('renders with the scripts run, as desktop Googlebot, from the origin, and stores it with the host TTL', async () => {
    const outcome = await refresh(job('/js'));
    expect(outcome).toMatchObject({ kind: 'stored', cacheKind: 'render', statusCode: 200 });
    const page = await stored(job('/js'));
    expect(page!.body).toMatch(/^<!DOCTYPE html>\n<html><head><meta name="viewport"/);
    expect(page!.body).toContain('rendered by js');
    expect(page!.entry).toMatchObject({ kind: 'render', statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(page!.entry.headers).not.toHaveProperty('set-cookie');
    expect(page!.entry.expiresAt - page!.entry.createdAt).toBe(3_600_000);
    expect(hitsOf('/js')[0].userAgent).toBe(DESKTOP_BOT_USER_AGENT);
    expect(pool.browserPid()).toEqual(expect.any(Number));
  });

  it('emulates the mobile bot for a mobile dimension (user agent and viewport)', async () => {
    const mobile = job('/viewport', { dimensionId: 2, mode: 'render' });
    expect(await refresh(mobile)).toMatchObject({ kind: 'stored', cacheKind: 'render' });
    expect((await stored(mobile))!.body).toContain('width=412');
    expect(hitsOf('/viewport').at(-1)!.userAgent).toBe(MOBILE_BOT_USER_AGENT);
  });

  it('fails a page that does not settle in time, stores nothing and keeps serving the old entry', async () => {
    const slow = job('/slow');
    await store.put({ ...slow, kind: 'render', statusCode: 200, headers: {}, durationMs: 1, createdAt: now - 10, expiresAt: now - 5 }, Buffer.from('<p>old</p>'));
    const outcome = await refresh(slow, 'recache', 1_000);
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'timed out' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(900);
    expect((await stored(slow))!.body).toBe('<p>old</p>');
    expect(refresher.capacity().freeTabs).toBe(2);
  });

  it('stores a 404 page as a real answer, with the URL rule TTL', async () => {
    expect(await refresh(job('/missing'))).toMatchObject({ kind: 'stored', statusCode: 404 });
    const page = await stored(job('/missing'));
    expect(page!.entry).toMatchObject({ statusCode: 404, headers: { 'x-robots-tag': 'noindex' } });
    expect(page!.entry.expiresAt - page!.entry.createdAt).toBe(60_000);
    expect(page!.body).toContain('Not found');
  });

  it('keeps a redirect as it is: 301 with the Location pointing to the public host, in both modes', async () => {
    const bypass = job('/moved', { dimensionId: 2 });
    expect(await refresh(bypass)).toMatchObject({ kind: 'stored', cacheKind: 'bypass', statusCode: 301, bytes: 0 });
    expect((await stored(bypass))!.entry).toMatchObject({ kind: 'bypass', statusCode: 301, headers: { location: `${PUBLIC}/js` } });
    expect(await refresh(job('/moved'))).toMatchObject({ kind: 'stored', cacheKind: 'render', statusCode: 301 });
    expect((await stored(job('/moved')))!.entry.headers).toEqual({ location: `${PUBLIC}/js` });
  });

  it('stores the status a single-page app signals with prerender meta tags: a soft 404 with its page, a client-side redirect with its Location', async () => {
    expect(await refresh(job('/soft-404'))).toMatchObject({ kind: 'stored', cacheKind: 'render', statusCode: 404 });
    const notFound = await stored(job('/soft-404'));
    expect(notFound!.entry.statusCode).toBe(404);
    expect(notFound!.body).toContain('No such product');
    expect(await refresh(job('/soft-moved'))).toMatchObject({ kind: 'stored', cacheKind: 'render', statusCode: 301, bytes: 0 });
    expect((await stored(job('/soft-moved')))!.entry).toMatchObject({ statusCode: 301, headers: { location: `${PUBLIC}/js?from=soft` } });
    // The scripts run at the origin's address: a Location naming it points back to the public host.
    expect(await refresh(job('/soft-moved-here'))).toMatchObject({ kind: 'stored', statusCode: 302 });
    expect((await stored(job('/soft-moved-here')))!.entry.headers).toEqual({ location: `${PUBLIC}/js` });
    // An origin failure stands, whatever the page signals.
    expect(await refresh(job('/broken-says-ok'))).toMatchObject({ kind: 'failed', reason: 'origin answered 503' });
  });

  it('fails an empty 200 page and a 503 in both modes, storing nothing', async () => {
    expect(await refresh(job('/empty'))).toMatchObject({ kind: 'failed', reason: 'empty render (status 200)' });
    expect(await refresh(job('/empty', { mode: 'bypass' }))).toMatchObject({ kind: 'failed', reason: 'empty body (status 200)' });
    expect(await refresh(job('/broken', { mode: 'bypass' }))).toMatchObject({ kind: 'failed', reason: 'origin answered 503' });
    expect(await refresh(job('/broken'))).toMatchObject({ kind: 'failed', reason: 'origin answered 503' });
    expect(await store.get(1, `${PUBLIC}/empty`, 1)).toBeUndefined();
    expect(await store.get(1, `${PUBLIC}/broken`, 1)).toBeUndefined();
  });

  it('loads a page whose path reads as another host from the origin, with that path, in both modes', async () => {
    const other = await startScriptedPageOrigin();
    try {
      const hostilePath = `//${new URL(other.url).host}/js`;
      const hostile = job(hostilePath);
      // The origin has no such route: its 404 page is the real answer.
      expect(await refresh(hostile)).toMatchObject({ kind: 'stored', cacheKind: 'render', statusCode: 404 });
      expect((await stored(hostile))!.body).toContain('no such route');
      expect(await refresh({ ...hostile, dimensionId: 2 })).toMatchObject({ kind: 'stored', cacheKind: 'bypass', statusCode: 404 });
      expect(hitsOf(hostilePath)).toHaveLength(2);
      expect(other.hits).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('fails a render larger than 16 MiB, storing nothing', async () => {
    expect(await refresh(job('/huge'))).toMatchObject({ kind: 'failed', reason: 'render larger than 16 MiB' });
    expect(await store.get(1, `${PUBLIC}/huge`, 1)).toBeUndefined();
  });

  const reached = (who: string) => until(() => origin.hits.some((h) => h.path.endsWith(`who=${who}`)), { what: `${who} at the origin` });

  it('gives up waiting for a tab at tabWaitSignal, while a render that has its tab keeps the longer signal', async () => {
    const busy = [1, 2].map((n) => refresher.refresh(job(`/held?who=busy${n}`), { signal: AbortSignal.timeout(20_000), purpose: 'online' }));
    // Both tabs taken: their pages are held at the origin until the late render has given up.
    await reached('busy1');
    await reached('busy2');
    // Without the tab wait's own end it would get a tab once a busy render ends, and be stored.
    const waiting = await refresher.refresh(job('/viewport?who=late'), { signal: AbortSignal.timeout(20_000), tabWaitSignal: AbortSignal.timeout(200), purpose: 'online' });
    expect(waiting.kind).toBe('failed');
    origin.release();
    expect((await Promise.all(busy)).map((o) => o.kind)).toEqual(['stored', 'stored']);
    expect(origin.hits.some((h) => h.path.endsWith('who=late'))).toBe(false);
  });

  it('runs recache renders one at a time on the unreserved tab while an online render gets the reserved one', async () => {
    const first = refresh(job('/held?who=r1'));
    const second = refresh(job('/held?who=r2'));
    // r1 holds the recache tab (its page held at the origin), r2 waits for it.
    await reached('r1');
    expect(refresher.capacity()).toEqual({ tabs: 2, freeTabs: 1, reservedForOnline: 1, availableForRecache: 0 });
    expect((await refresh(job('/viewport?who=online'), 'online')).kind).toBe('stored');
    origin.release();
    await reached('r2');
    origin.release();
    expect((await Promise.all([first, second])).map((o) => o.kind)).toEqual(['stored', 'stored']);
    const [r1, r2, on] = ['r1', 'r2', 'online'].map((who) => origin.hits.find((h) => h.path.endsWith(`who=${who}`))!);
    // r2 reached the origin only after r1 was answered; the online render ran while r1 held the recache tab.
    expect(r2.startedAt).toBeGreaterThanOrEqual(r1.endedAt!);
    expect(on.startedAt).toBeLessThan(r1.endedAt!);
    expect(refresher.capacity()).toEqual({ tabs: 2, freeTabs: 2, reservedForOnline: 1, availableForRecache: 1 });
  });

  it('keeps a fresh render against a bypass without asking the origin, and lets a bypass replace it once expired', async () => {
    const page = job('/js');
    const before = hitsOf('/js').length;
    expect(await refresh({ ...page, mode: 'bypass' })).toMatchObject({ kind: 'kept', reason: 'render-wins' });
    expect(hitsOf('/js').length).toBe(before);
    expect((await stored(page))!.entry.kind).toBe('render');
    now += 3_600_000;
    expect(await refresh({ ...page, mode: 'bypass' })).toMatchObject({ kind: 'stored', cacheKind: 'bypass', statusCode: 200 });
    const bypassed = await stored(page);
    expect(bypassed!.entry.kind).toBe('bypass');
    expect(bypassed!.body).not.toContain('rendered by js');
  });

  it('answers failed for unknown hosts, dimensions and bad URLs without rendering', async () => {
    expect(await refresh(job('/js', { hostId: 9 }))).toMatchObject({ kind: 'failed', reason: 'unknown host 9' });
    expect(await refresh(job('/js', { dimensionId: 9 }))).toMatchObject({ kind: 'failed', reason: 'unknown dimension 9 of host 1' });
    expect(await refresh({ hostId: 1, url: 'not a url', dimensionId: 1 })).toMatchObject({ kind: 'failed', reason: 'invalid url "not a url"' });
  });

  it('starts a new browser when Chromium dies', async () => {
    const pid = pool.browserPid()!;
    process.kill(pid, 'SIGKILL');
    await until(() => pool.browserPid() !== pid, { timeoutMs: 5_000, what: 'the pool noticing the dead browser' });
    expect(await refresh(job('/js', { url: `${PUBLIC}/js?again=1` }))).toMatchObject({ kind: 'stored', cacheKind: 'render' });
    expect(pool.browserPid()).not.toBe(pid);
  });
});
