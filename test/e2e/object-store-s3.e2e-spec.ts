import { sha256Hex } from '@bpc/domain';
import type { AppConfig } from '@bpc/config';
import { S3ObjectStore } from '@bpc/object-store';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { bypassHost, freePort, jsonOf, rawRequest, startS3Server, TEST_INTERNAL_KEY, testConfig, TestOrigin, until, type RawAnswer, type RunningS3Server } from '@bpc/testing';
import { edgeApp } from '../../apps/edge/src/edge.app';
import { daemonApp } from '../../apps/daemon/src/daemon.app';
import { projectorApp } from '../../apps/projector/src/projector.app';

const TOKEN = 'object-store-s3-token';
const BOT = { 'x-prerender-token': TOKEN, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
const PAGE = (path: string) => `https://www.example.com${path}`;
const INTERNAL = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };
const STORE_LINE = 'object_store (s3)';

/**
 * Issue 45 §1 on S3: two edges (and a daemon with its projector) in cluster
 * mode with `adapters.object_store: s3` on one s3rver, one Redis, one Kafka
 * namespace. Page bodies live in the bucket; each edge keeps hot bodies in
 * memory (`PageBodies`, keyed by the immutable body path).
 */
describe('page bodies on S3, two edges (cluster mode, object_store: s3)', () => {
  let s3: RunningS3Server;
  let origin: TestOrigin;
  let config: AppConfig;
  let edgeA: RunningApps;
  let edgeB: RunningApps;
  let daemon: RunningApps;
  const savedCredentials = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  const bot = (edge: RunningApps, path: string): Promise<RawAnswer> => rawRequest(edge.urls.edge!, `/${PAGE(path)}`, { method: 'GET', headers: BOT });
  /** The version the origin wrote into the body (its fetch count of the path when the page was produced). */
  const versionOf = (answer: RawAnswer): number => Number(/ v(\d+)<\/body>/.exec(answer.body.toString())?.[1] ?? 0);
  const served = (answer: RawAnswer) => ({ status: answer.status, cache: answer.headers['x-prerender-cache'], stored: answer.headers['x-prerender-stored'], version: versionOf(answer) });
  const readiness = async (edge: RunningApps) => {
    const response = await fetch(`${edge.urls.edge}/health/ready`);
    return { status: response.status, body: await jsonOf(response) };
  };
  const daemonCall = async (path: string, body: unknown) => {
    const response = await fetch(`${daemon.urls.daemon}${path}`, { method: 'POST', headers: INTERNAL, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return jsonOf(response);
  };
  /** Body objects the bucket holds for the deployment, relative to `cache/` (listed through A's object store). */
  const bodiesInBucket = async (): Promise<string[]> => {
    const keys: string[] = [];
    for await (const object of edgeA.runtime.ports.objectStore!.list('cache/')) keys.push(object.key.slice('cache/'.length));
    return keys.sort();
  };
  /** Reads of a body s3rver answered (its log), to tell a hit served from memory from one read from the bucket. */
  const readsOf = (bodyPath: string): number => s3.log().filter((line) => line.includes(`${bodyPath}?x-id=GetObject 200`)).length;
  const entryOf = (path: string) => edgeA.runtime.ports.cacheStore!.get(1, PAGE(path), 1);

  beforeAll(async () => {
    s3 = await startS3Server({ logRequests: true });
    // The S3 adapter takes its credentials from the SDK's default chain, as in production.
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    origin = new TestOrigin((path, hit) => ({ status: 200, body: `<html><head><title>Page ${path}</title></head><body>${'Words of the page. '.repeat(100)} v${hit}</body></html>` }));
    const originUrl = await origin.start();
    config = testConfig('cluster', {
      adapters: { event_log: 'kafka', queue_store: 'redis', explorer_store: 'chdb', object_store: 's3' },
      s3: { bucket: s3.bucket, prefix: 'deployment', endpoint: s3.endpoint, region: s3.region, force_path_style: true, request_timeout_ms: 1_000, max_attempts: 1 },
      scheduler: { tick_ms: 50 },
      edge: { render_timeout_ms: 5_000, record_flush_ms: 50 },
      hosts: [bypassHost(originUrl)],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
    const withEdgePort = async (): Promise<AppConfig> => ({ ...config, listen: { ...config.listen, edge: await freePort() } });
    [edgeA, edgeB, daemon] = await Promise.all([
      withEdgePort().then((c) => startApps([edgeApp], c, createLogger('silent', 's3-edge-a'))),
      withEdgePort().then((c) => startApps([edgeApp], c, createLogger('silent', 's3-edge-b'))),
      startApps([daemonApp, projectorApp], config, createLogger('silent', 's3-daemon')),
    ]);
  });

  let appsClosed = false;
  const closeApps = async (): Promise<void> => {
    if (appsClosed) return;
    appsClosed = true;
    await Promise.all([edgeA?.close(), edgeB?.close(), daemon?.close()]);
  };

  afterAll(async () => {
    await closeApps();
    await origin?.stop();
    await s3?.close();
    process.env.AWS_ACCESS_KEY_ID = savedCredentials.id;
    process.env.AWS_SECRET_ACCESS_KEY = savedCredentials.secret;
    if (savedCredentials.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (savedCredentials.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it("stores a miss rendered through edge A in the bucket; edge B serves it as a hit read from S3 (a cold hit), then from memory", async () => {
    const miss = await bot(edgeA, '/shared');
    expect(served(miss)).toEqual({ status: 200, cache: 'bypass', stored: undefined, version: 1 });
    const entry = (await entryOf('/shared'))!.entry;
    expect(await bodiesInBucket()).toContain(entry.bodyPath);

    const cold = await bot(edgeB, '/shared');
    expect(served(cold)).toEqual({ status: 200, cache: 'hit', stored: undefined, version: 1 });
    expect(cold.body.equals(miss.body)).toBe(true);
    expect(origin.hits.get('/shared')).toBe(1);
    // One read of the body from the bucket: B's cold hit (A answered its miss with the body it had just written); neither edge's next hits ask the bucket.
    await until(() => readsOf(entry.bodyPath), (reads) => reads === 1, { what: "B's read of the body in s3rver's log" });
    for (let i = 0; i < 3; i++) expect(served(await bot(edgeB, '/shared'))).toMatchObject({ cache: 'hit', version: 1 });
    for (let i = 0; i < 3; i++) expect(served(await bot(edgeA, '/shared'))).toMatchObject({ cache: 'hit', version: 1 });
    // s3rver logs a request after answering it: a later request's line shows any read of the body would have been logged by now.
    const marker = `marker-${Date.now()}.bin`;
    await edgeA.runtime.ports.objectStore!.stat(marker);
    await until(() => s3.log().some((line) => line.includes(marker)), { what: 'the later request logged' });
    expect(readsOf(entry.bodyPath)).toBe(1);
  });

  it('never serves an old body kept in memory once a newer render or an invalidation is stored, on either edge', async () => {
    // Both edges hold v1 in memory.
    for (const edge of [edgeA, edgeB]) for (let i = 0; i < 2; i++) expect(served(await bot(edge, '/fresh'))).toMatchObject({ status: 200, version: 1 });
    const v1 = (await entryOf('/fresh'))!.entry;

    // A newer render, by the daemon: the moment it is stored, both edges serve it.
    await daemonCall('/internal/cache/recache', { host_id: 1, urls: [PAGE('/fresh')], dimension_ids: [1], priority: 'high' });
    await until(async () => (await entryOf('/fresh'))?.entry.bodyPath, (bodyPath) => bodyPath !== undefined && bodyPath !== v1.bodyPath, { timeoutMs: 15_000, intervalMs: 10, what: 'the recache stored' });
    expect([served(await bot(edgeB, '/fresh')), served(await bot(edgeA, '/fresh'))]).toEqual([
      { status: 200, cache: 'hit', stored: undefined, version: 2 },
      { status: 200, cache: 'hit', stored: undefined, version: 2 },
    ]);

    // An invalidation: the next request on B is a miss (rendered again), and A serves B's render, never its v2 in memory.
    const invalidated = await daemonCall('/internal/cache/invalidate', { host_id: 1, urls: [PAGE('/fresh')] });
    expect(invalidated.data).toMatchObject({ entries_invalidated: 1 });
    expect(served(await bot(edgeB, '/fresh'))).toEqual({ status: 200, cache: 'bypass', stored: undefined, version: 3 });
    expect(served(await bot(edgeA, '/fresh'))).toEqual({ status: 200, cache: 'hit', stored: undefined, version: 3 });
    expect(origin.hits.get('/fresh')).toBe(3);
  });

  it('keeps serving while S3 is down (hits in memory 200, misses answered unstored, a cold hit 503), ready but degraded, and recovers once S3 is back without a restart', async () => {
    expect(served(await bot(edgeA, '/hot'))).toMatchObject({ status: 200, cache: 'bypass' });
    expect(served(await bot(edgeA, '/hot'))).toMatchObject({ status: 200, cache: 'hit' });
    const readyBefore = await readiness(edgeA);
    expect({ status: readyBefore.status, health: readyBefore.body.status, line: readyBefore.body.details[STORE_LINE] }).toEqual({ status: 200, health: 'ok', line: { status: 'up' } });

    await s3.stop();
    try {
      // A hit whose body is in memory: served as if nothing happened.
      expect(served(await bot(edgeA, '/hot'))).toEqual({ status: 200, cache: 'hit', stored: undefined, version: 1 });
      // A hit whose body B never read: the body cannot be had, a 503 the bot retries.
      const cold = await bot(edgeB, '/hot');
      expect([cold.status, cold.headers['retry-after'], JSON.parse(cold.body.toString()).code]).toEqual([503, expect.any(String), 'UNAVAILABLE']);
      // A miss: rendered and answered with its body, marked unstored; nothing is in the cache for it.
      const unstored = await bot(edgeA, '/while-down');
      expect(served(unstored)).toEqual({ status: 200, cache: 'bypass', stored: 'no', version: 1 });
      expect(unstored.body.toString()).toContain('<title>Page /while-down</title>');
      expect(await entryOf('/while-down')).toBeUndefined();

      for (const edge of [edgeA, edgeB]) {
        const ready = await until(() => readiness(edge), (r) => r.body.details?.[STORE_LINE]?.status === 'down', { timeoutMs: 10_000, what: 'the object store line down' });
        expect({ status: ready.status, health: ready.body.status, degraded: ready.body.degraded }).toEqual({ status: 200, health: 'degraded', degraded: { [STORE_LINE]: { status: 'down', reason: expect.stringMatching(/unreachable/) } } });
      }
    } finally {
      await s3.restart();
    }

    // Back: a miss is stored again, the cold hit is served from the bucket, readiness is clean; the same apps throughout.
    const again = await until(() => bot(edgeA, '/while-down'), (answer) => answer.headers['x-prerender-stored'] === undefined, { timeoutMs: 10_000, what: 'a miss stored again' });
    expect(served(again)).toEqual({ status: 200, cache: 'bypass', stored: undefined, version: expect.any(Number) });
    expect(served(await bot(edgeB, '/while-down'))).toEqual({ status: 200, cache: 'hit', stored: undefined, version: versionOf(again) });
    expect(served(await bot(edgeB, '/hot'))).toEqual({ status: 200, cache: 'hit', stored: undefined, version: 1 });
    for (const edge of [edgeA, edgeB]) {
      const ready = await until(() => readiness(edge), (r) => r.body.status === 'ok', { timeoutMs: 10_000, what: 'readiness clean again' });
      expect({ status: ready.status, line: ready.body.details[STORE_LINE] }).toEqual({ status: 200, line: { status: 'up' } });
    }
  });

  it('after churn through both edges, every entry names a body in the bucket that either edge serves; once the removal grace is over the bucket holds exactly those bodies', async () => {
    const paths = ['/churn/1', '/churn/2', '/churn/3'];
    const rendered = new Map<string, string>();
    for (const [i, path] of paths.entries()) {
      expect(served(await bot(i % 2 ? edgeA : edgeB, path))).toMatchObject({ status: 200, cache: 'bypass' });
      rendered.set(path, (await entryOf(path))!.entry.bodyPath);
    }
    await daemonCall('/internal/cache/recache', { host_id: 1, urls: paths.map(PAGE), dimension_ids: [1], priority: 'high' });
    const replaced = async () => (await Promise.all(paths.map(async (path) => (await entryOf(path))?.entry.bodyPath !== rendered.get(path)))).every(Boolean);
    await until(replaced, { timeoutMs: 15_000, what: 'every recache stored' });
    await daemonCall('/internal/cache/invalidate', { host_id: 1, urls: [PAGE('/churn/2')] });
    await bot(edgeA, '/churn/2');
    const inBucket = await bodiesInBucket();
    for (const path of paths) {
      const entry = (await entryOf(path))!.entry;
      // No entry points at a missing body: it is in the bucket, and each edge serves it.
      expect(inBucket).toContain(entry.bodyPath);
      for (const edge of [edgeB, edgeA]) expect(served(await bot(edge, path))).toMatchObject({ status: 200, cache: 'hit', version: path === '/churn/2' ? 3 : 2 });
    }

    // Every entry of the file's pages (rendered, recached, invalidated, rendered during the outage and after it).
    const live = (await edgeA.runtime.ports.cacheStore!.listEntries(1, {}, 0, 100)).entries.map((entry) => entry.bodyPath).sort();
    expect(live.length).toBe(7);
    // Replaced and invalidated bodies wait out the removal grace (30 s) in the process that replaced them; closing runs those
    // removals at once, as the grace ending would.
    await closeApps();
    const bucket = new S3ObjectStore({ bucket: s3.bucket, prefix: 'deployment', endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3.credentials });
    try {
      const keys: string[] = [];
      for await (const object of bucket.list('cache/')) keys.push(object.key.slice('cache/'.length));
      expect(keys.sort()).toEqual(live);
    } finally {
      await bucket.close();
    }
  });
});
