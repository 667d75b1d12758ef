import { randomUUID } from 'node:crypto';
import { sha256Hex } from '@bpc/domain';
import {
  jsonOf,
  ReplicatedCluster,
  RunningClickhouseServer,
  RunningS3Server,
  startClickhouseServer,
  startS3Server,
  TEST_INTERNAL_KEY,
  TestOrigin,
  testEngines,
  until,
} from '@bpc/testing';

const TOKEN = 'replicas-prerender-token';
const BOT = { 'x-prerender-token': TOKEN, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
const INTERNAL = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };
const PAGE = (path: string) => `https://www.example.com${path}`;
/** Per-host renders at once (`recache.max_concurrent`), across every daemon. */
const MAX_CONCURRENT = 2;

/**
 * Issue 45 §3: two replicas of every app, each a process of its own, on one
 * Kafka (the mock cluster), one Redis, one ClickHouse (the harness's HTTP
 * stand-in) and one S3 server, as an operator runs them behind a load
 * balancer. Each test drives one replica and reads the other.
 */
describe('two replicas of every app, separate processes, shared engines (cluster mode)', () => {
  jest.setTimeout(240_000);
  let clickhouse: RunningClickhouseServer;
  let s3: RunningS3Server;
  let origin: TestOrigin;
  let cluster: ReplicatedCluster;

  const url = (app: 'public-api' | 'daemon' | 'edge' | 'projector', index: number) => cluster.replica(app, index).url;
  const bot = (edge: number, path: string) => fetch(`${url('edge', edge)}/${PAGE(path)}`, { headers: BOT });
  const daemon = async (index: number, path: string, body: unknown) => jsonOf(await fetch(`${url('daemon', index)}${path}`, { method: 'POST', headers: INTERNAL, body: JSON.stringify(body) }));

  beforeAll(async () => {
    origin = new TestOrigin((path) => ({
      status: 200,
      // Slow enough that the scheduler's renders overlap: what the capacity checks need.
      delayMs: path.startsWith('/slow/') ? 400 : 0,
      body: `<!doctype html><html><head><title>Page ${path}</title></head><body><h1>${path}</h1><p>${'Words for the page. '.repeat(30)}</p></body></html>`,
    }));
    const originUrl = await origin.start();
    [clickhouse, s3] = await Promise.all([startClickhouseServer(), startS3Server()]);
    const database = `replicas_${randomUUID().slice(0, 8)}`;
    await clickhouse.createDatabase(database);
    const { kafkaBrokers, redisUrl } = testEngines();
    cluster = await ReplicatedCluster.start({
      engines: {
        kafkaBrokers,
        redisUrl,
        clickhouse: { url: clickhouse.url, database },
        s3: { endpoint: s3.endpoint, bucket: s3.bucket, accessKeyId: s3.credentials.accessKeyId, secretAccessKey: s3.credentials.secretAccessKey },
      },
      config: {
        hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'render' }] }],
        websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
        recache: { max_concurrent: MAX_CONCURRENT },
        render_service: { tabs: 2, reservation_percent: 50 },
      },
    });
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    await Promise.all([clickhouse?.stop(), s3?.stop(), origin?.stop()]);
  });

  it('renders a recache through one daemon once, and serves it as a hit from both edges', async () => {
    const queued = await daemon(0, '/internal/cache/recache', { host_id: 1, urls: [PAGE('/recached')], priority: 'high' });
    expect(queued.data.entries_enqueued).toBe(1);
    await until(async () => (await bot(1, '/recached')).headers.get('x-prerender-cache'), (cache) => cache === 'hit', { timeoutMs: 60_000, intervalMs: 200, what: 'the recached page served as a hit by edge 1' });
    const fromEdge0 = await bot(0, '/recached');
    expect(fromEdge0.headers.get('x-prerender-cache')).toBe('hit');
    expect(await fromEdge0.text()).toContain('<h1>/recached</h1>');
    expect(origin.hits.get('/recached')).toBe(1);
  });

  it('makes an invalidation through one daemon a miss on the other edge at once', async () => {
    expect((await bot(1, '/invalidated')).headers.get('x-prerender-cache')).toBe('miss');
    expect((await bot(0, '/invalidated')).headers.get('x-prerender-cache')).toBe('hit');
    const dropped = await daemon(1, '/internal/cache/invalidate', { host_id: 1, urls: [PAGE('/invalidated')] });
    expect(dropped.data.entries_invalidated).toBe(1);
    expect((await bot(0, '/invalidated')).headers.get('x-prerender-cache')).toBe('miss');
  });

  it('holds the per-host limit across both daemons: never more than max_concurrent renders at once, never two of one entry', async () => {
    const urls = Array.from({ length: 12 }, (_, i) => PAGE(`/slow/${i}`));
    // Half through each daemon, so both schedulers hold work for the host.
    await Promise.all([daemon(0, '/internal/cache/recache', { host_id: 1, urls: urls.slice(0, 6), priority: 'normal' }), daemon(1, '/internal/cache/recache', { host_id: 1, urls: urls.slice(6), priority: 'normal' })]);
    await until(async () => urls.every((u) => origin.hits.get(new URL(u).pathname) === 1), { timeoutMs: 90_000, intervalMs: 200, what: 'every slow page rendered once' });
    expect(origin.maxInFlight).toBeLessThanOrEqual(MAX_CONCURRENT);
    expect(origin.maxInFlight).toBeGreaterThan(0);
    expect(Math.max(...urls.map((u) => origin.maxInFlightByPath.get(new URL(u).pathname) ?? 0))).toBe(1);
  });
});
