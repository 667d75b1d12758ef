import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { sha256Hex } from '@bpc/domain';
import {
  Json,
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
/** Each test's bound: the projector and rolling-restart tests run minutes on a busy machine. */
const TEST_TIMEOUT_MS = 240_000;

/**
 * Issue 45 §3: two replicas of every app, each a process of its own, on one
 * Kafka (the mock cluster), one Redis, one ClickHouse (the harness's HTTP
 * stand-in) and one S3 server, as an operator runs them behind a load
 * balancer. Each test drives one replica and reads the other.
 */
describe('two replicas of every app, separate processes, shared engines (cluster mode)', () => {
  let clickhouse: RunningClickhouseServer;
  let s3: RunningS3Server;
  let origin: TestOrigin;
  let cluster: ReplicatedCluster;

  const url = (app: 'public-api' | 'daemon' | 'edge' | 'projector', index: number) => cluster.replica(app, index).url;
  const bot = (edge: number, path: string) => fetch(`${url('edge', edge)}/${PAGE(path)}`, { headers: BOT });
  let token: string;
  const api = (index: number, path: string, init: RequestInit = {}) => fetch(`${url('public-api', index)}/api/websites/demo${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  const cacheEntries = (index: number, path: string) => api(index, `/cache/entries?url=${encodeURIComponent(PAGE(path))}`);
  /** Whether the cache holds the page, as the public API of one replica reads the shared cache store (no render, unlike a bot's miss). */
  const cached = async (index: number, path: string) => {
    const response = await cacheEntries(index, path);
    const body = await jsonOf(response);
    if (response.status !== 200) throw new Error(`public-api ${index} answered ${response.status} for ${path}: ${JSON.stringify(body)}`);
    return body.entries[0].cached as boolean;
  };
  const daemon = async (index: number, path: string, body: unknown) => jsonOf(await fetch(`${url('daemon', index)}${path}`, { method: 'POST', headers: INTERNAL, body: JSON.stringify(body) }));
  /** A wait's description that, when the wait fails, saves every replica's output and says where. */
  const withLogs = (what: string) => () => `${what} (${cluster.saveOutput()})`;

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
        scheduler: { tick_ms: 200 },
        render_service: { tabs: 2, reservation_percent: 50 },
        // The tests poll one token's API for minutes (every 50 ms while 50,000 requests are projected): past the default 600 a minute.
        rate_limit: { enabled: false },
      },
    });
    const issued = await jsonOf(await fetch(`${url('public-api', 0)}/internal/admin/tokens`, { method: 'POST', headers: INTERNAL, body: JSON.stringify({ user: 'ops', website: 'demo', role: 'manager' }) }));
    token = issued.token;
    // The other replica applies the token as it reads the identity topic (docs/public-api.md): moments later, longer on a busy machine.
    const statusOf = async (index: number) => {
      const response = await cacheEntries(index, '/');
      await response.body?.cancel();
      return response.status;
    };
    for (const index of [0, 1]) await until(() => statusOf(index), (status) => status === 200, { timeoutMs: 60_000, what: `the token accepted by public-api ${index}` });
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    await Promise.all([clickhouse?.stop(), s3?.stop(), origin?.stop()]);
  });

  it('renders a recache through one daemon once, and serves it as a hit from both edges', async () => {
    const queued = await daemon(0, '/internal/cache/recache', { host_id: 1, urls: [PAGE('/recached')], priority: 'high' });
    expect(queued).toMatchObject({ data: { entries_enqueued: 1 } });
    await until(() => cached(1, '/recached'), { timeoutMs: 60_000, intervalMs: 100, what: withLogs('the recached page in the cache') });
    expect((await bot(1, '/recached')).headers.get('x-prerender-cache')).toBe('hit');
    const fromEdge0 = await bot(0, '/recached');
    expect(fromEdge0.headers.get('x-prerender-cache')).toBe('hit');
    expect(await fromEdge0.text()).toContain('<h1>/recached</h1>');
    expect(origin.hits.get('/recached')).toBe(1);
  }, TEST_TIMEOUT_MS);

  it('makes an invalidation through one daemon a miss on the other edge at once', async () => {
    expect((await bot(1, '/invalidated')).headers.get('x-prerender-cache')).toBe('miss');
    expect((await bot(0, '/invalidated')).headers.get('x-prerender-cache')).toBe('hit');
    const dropped = await daemon(1, '/internal/cache/invalidate', { host_id: 1, urls: [PAGE('/invalidated')] });
    expect(dropped.data.entries_invalidated).toBe(1);
    expect((await bot(0, '/invalidated')).headers.get('x-prerender-cache')).toBe('miss');
  }, TEST_TIMEOUT_MS);

  it('holds the per-host limit across both daemons: never more than max_concurrent renders at once, never two of one entry', async () => {
    const urls = Array.from({ length: 8 }, (_, i) => PAGE(`/slow/${i}`));
    // Half through each daemon, so both schedulers hold work for the host.
    await Promise.all([daemon(0, '/internal/cache/recache', { host_id: 1, urls: urls.slice(0, 4), priority: 'normal' }), daemon(1, '/internal/cache/recache', { host_id: 1, urls: urls.slice(4), priority: 'normal' })]);
    await until(async () => urls.every((u) => origin.hits.get(new URL(u).pathname) === 1), { timeoutMs: 90_000, intervalMs: 200, what: withLogs('every slow page rendered once') });
    expect(origin.maxInFlight).toBeLessThanOrEqual(MAX_CONCURRENT);
    expect(origin.maxInFlight).toBeGreaterThan(0);
    expect(Math.max(...urls.map((u) => origin.maxInFlightByPath.get(new URL(u).pathname) ?? 0))).toBe(1);
  }, TEST_TIMEOUT_MS);

  it('answers the Data Explorer the same from either public-api, and counts every request either edge served', async () => {
    const served = await Promise.all([0, 1].flatMap((edge) => Array.from({ length: 5 }, async () => (await bot(edge, `/explored/${edge}`)).status)));
    expect(served.every((status) => status === 200)).toBe(true);
    const totalOf = async (index: number, path: string) =>
      (await jsonOf(await api(index, '/data-explorer/events/query', { method: 'POST', body: JSON.stringify({ period: '7d', perPage: 1, filters: [{ field: 'url', op: 'contains', val: path }] }) }))).meta.total as number;
    await until(() => totalOf(0, '/explored/'), (total) => total === 10, { timeoutMs: 60_000, intervalMs: 200, what: 'the ten requests in the explorer' });
    expect(await totalOf(1, '/explored/')).toBe(10);
    expect(await totalOf(1, '/explored/0')).toBe(5);
    expect(await totalOf(0, '/explored/1')).toBe(5);
  }, TEST_TIMEOUT_MS);

  it('shares the export slot, the record and the download between the public-api replicas', async () => {
    const started = await jsonOf(await api(0, '/data-explorer/events/export', { method: 'POST', body: JSON.stringify({ period: '7d', waitSeconds: 0 }) }));
    const exportId = started.data?.exportId ?? started.exportId;
    expect(typeof exportId).toBe('number');
    const done = await until(async () => jsonOf(await api(1, `/data-explorer/export/${exportId}/status`)), (record) => (record.data ?? record).status === 'completed', { timeoutMs: 60_000, intervalMs: 200, what: withLogs('the export completed, read from the other replica') });
    const link = new URL((done.data ?? done).downloadUrl);
    // The link names the configured public address: take its path and ask each replica.
    for (const index of [0, 1]) {
      const download = await fetch(`${url('public-api', index)}${link.pathname}${link.search}`);
      expect(download.status).toBe(200);
      expect((await download.text()).split('\n')[0]).toContain(',');
    }
  }, TEST_TIMEOUT_MS);

  it('counts exactly every bot request after one projector is killed -9 in the middle of 50,000, and keeps the queue projection exact', async () => {
    const totalOf = async (index: number) => (await jsonOf(await api(index, '/data-explorer/events/query', { method: 'POST', body: JSON.stringify({ period: '30d', perPage: 1 }) }))).meta.total as number;
    const before = await totalOf(0);
    let appended = 0;
    let seed = 1_000;
    // Demo traffic of yesterday and today (today's only up to now: none of it just after midnight UTC) at a time, 1,600 to
    // 6,300 bot requests, at most about 5 MB in one partition (one website's key), each counted before the next is appended:
    // Kafka's mock cluster keeps only about the last 5 MB of a partition (seen: its low watermark at 52,603 of 58,784), so a
    // consumer further behind than that would find its records gone. A real broker keeps them (retention -1).
    const appendDay = async () => {
      const written = await jsonOf(await fetch(`${url('public-api', 1)}/internal/admin/demo-data`, { method: 'POST', headers: INTERNAL, body: JSON.stringify({ days: 2, requestsPerDay: 2_500, seed: seed++ }) }));
      appended += written.botRequests as number;
    };
    // Queue work projected while the projector dies (paused, so none of it drains): counted by the other one after the rebalance.
    await daemon(1, '/internal/cache/recache/pause', { host_id: 1 });
    const queued = await daemon(0, '/internal/cache/recache', { host_id: 1, urls: Array.from({ length: 50 }, (_, i) => PAGE(`/queued/${i}`)), priority: 'normal' });
    const firstDay = appendDay();
    await until(() => totalOf(0), (total) => total >= before + 1_000, { timeoutMs: 60_000, intervalMs: 50, what: 'the first demo rows projected' });
    expect(await cluster.kill('projector', 0)).toBe('SIGKILL');
    try {
      await firstDay;
      for (;;) {
        await until(() => totalOf(1), (total) => total === before + appended, { timeoutMs: 60_000, intervalMs: 200, what: withLogs(`${appended} demo rows counted once by the surviving projector`) });
        if (appended >= 50_000) break;
        await appendDay();
      }
      expect(await totalOf(0)).toBe(before + appended);
      const statuses = await Promise.all([0, 1].map(async (index) => (await jsonOf(await fetch(`${url('daemon', index)}/status`, { headers: INTERNAL }))).data.queues['1']));
      expect(queued.data.entries_enqueued).toBe(50);
      expect(statuses.map((status) => status.normal.total)).toEqual([50, 50]);
    } finally {
      await daemon(0, '/internal/cache/recache/resume', { host_id: 1 });
      await daemon(0, '/internal/cache/queue/purge', { host_id: 1 });
      await cluster.restart('projector', 0);
    }
  }, TEST_TIMEOUT_MS);

  it('keeps serving from the other edge when one is killed -9 under load, and leaves unrecorded only what the killed one served in its last flush interval', async () => {
    for (const path of ['/load/0', '/load/1']) {
      await bot(0, path);
      await until(() => cached(0, path), { timeoutMs: 30_000, intervalMs: 100, what: `${path} cached` });
    }
    const answered: { edge: number; status: number; at: number }[] = [];
    let killedAt = Number.POSITIVE_INFINITY;
    let running = true;
    const loop = async (edge: number) => {
      while (running) {
        const status = await bot(edge, `/load/${edge}`).then((r) => (r.body?.cancel(), r.status), () => 0);
        if (status !== 0) answered.push({ edge, status, at: Date.now() });
        else if (edge === 1 && Date.now() < killedAt) throw new Error('edge 1 refused a request before it was killed');
        else if (edge === 1) return;
      }
    };
    const loops = [0, 0, 1, 1].map(loop);
    await until(async () => answered.filter((a) => a.edge === 1).length, (n) => n >= 200, { timeoutMs: 60_000, intervalMs: 20, what: 'edge 1 under load' });
    killedAt = Date.now();
    expect(await cluster.kill('edge', 1)).toBe('SIGKILL');
    const restarted = (async () => {
      await Promise.all(loops.slice(2));
      await cluster.restart('edge', 1);
    })();
    const servedBeforeKill = answered.filter((a) => a.edge === 0).length;
    await until(async () => answered.filter((a) => a.edge === 0).length, (n) => n >= servedBeforeKill + 200, { timeoutMs: 60_000, intervalMs: 20, what: 'edge 0 serving on after the kill' });
    running = false;
    await Promise.all(loops);
    expect(answered.filter((a) => a.status !== 200)).toEqual([]);
    const servedBy = (edge: number) => answered.filter((a) => a.edge === edge).length;
    const recorded = async (path: string) =>
      (await jsonOf(await api(0, '/data-explorer/events/query', { method: 'POST', body: JSON.stringify({ period: '7d', perPage: 1, filters: [{ field: 'url', op: 'contains', val: path }] }) }))).meta.total as number;
    // Edge 0's answers are all recorded; the warm-up requests (one miss each, before the load) count too.
    await until(() => recorded('/load/0'), (n) => n === servedBy(0) + 1, { timeoutMs: 60_000, intervalMs: 200, what: "every request edge 0 answered in the explorer" });
    // Edge 1 lost at most its in-memory buffer: what it answered in its last flush interval (`edge.record_flush_ms`, 200 ms), and
    // on a busy machine a batch being appended: bounded here by what it answered in its last second.
    const lastSecond = answered.filter((a) => a.edge === 1 && a.at > killedAt - 1_000).length;
    const ofEdge1 = await recorded('/load/1');
    expect(ofEdge1).toBeLessThanOrEqual(servedBy(1) + 1);
    expect(ofEdge1).toBeGreaterThanOrEqual(servedBy(1) + 1 - lastSecond);
    await restarted;
  }, TEST_TIMEOUT_MS);

  it('goes through a rolling restart of every app under steady load: no 5xx, every answered bot request recorded, every acknowledged recache rendered', async () => {
    const statuses: number[] = [];
    let answeredOk = 0;
    let running = true;
    let turn = 0;
    // The load balancer: round robin, and a request an edge refused to connect goes to the other one.
    const throughBalancer = async () => {
      const first = turn++ % 2;
      for (const edge of [first, 1 - first]) {
        const status = await bot(edge, '/load/0').then((r) => (r.body?.cancel(), r.status), () => 0);
        if (status !== 0) return status;
      }
      return 0;
    };
    const loop = async () => {
      while (running) {
        const status = await throughBalancer();
        statuses.push(status);
        if (status === 200) answeredOk += 1;
        // A steady rate, not a flood: the Kafka mock keeps about 5 MB of a partition (see the projector test), and a
        // restarting projector must not fall that far behind.
        await delay(20);
      }
    };
    const before = await (async () =>
      (await jsonOf(await api(0, '/data-explorer/events/query', { method: 'POST', body: JSON.stringify({ period: '7d', perPage: 1, filters: [{ field: 'url', op: 'contains', val: '/load/0' }] }) }))).meta.total as number)();
    const loops = [loop(), loop()];
    const recaches: { path: string; queued: Promise<Json> }[] = [];
    for (const app of ['projector', 'public-api', 'daemon', 'edge'] as const) {
      for (const index of [0, 1]) {
        expect(await cluster.kill(app, index, 'SIGTERM')).toBe(0);
        // Work acknowledged while a replica is down: a recache through a daemon that is up, answered once its event is
        // projected (a projector restarting can hold that answer for a rebalance: not awaited before the next step).
        const path = `/rolling/${app}-${index}`;
        const daemonUp = app === 'daemon' ? 1 - index : index;
        recaches.push({ path, queued: daemon(daemonUp, '/internal/cache/recache', { host_id: 1, urls: [PAGE(path)], priority: 'high' }) });
        await cluster.restart(app, index);
      }
    }
    running = false;
    await Promise.all(loops);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const recorded = async () =>
      (await jsonOf(await api(1, '/data-explorer/events/query', { method: 'POST', body: JSON.stringify({ period: '7d', perPage: 1, filters: [{ field: 'url', op: 'contains', val: '/load/0' }] }) }))).meta.total as number;
    await until(recorded, (n) => n === before + answeredOk, { timeoutMs: 60_000, intervalMs: 200, what: () => `every answered bot request recorded (${answeredOk} answered)` });
    for (const { path, queued } of recaches) {
      // Acknowledged: queued, or recorded and applied later (the daemon's answer when the projection took longer than its
      // 15 s wait, as a projector's restart and rebalance can on a busy machine).
      const answer = await queued;
      if (answer.data?.entries_enqueued !== 1) expect(answer).toEqual({ status: 'error', message: expect.stringMatching(/is recorded but the queue projection did not apply it/) });
      await until(() => cached(0, path), { timeoutMs: 60_000, intervalMs: 200, what: `${path}, acknowledged during the restart, rendered` });
    }
  }, TEST_TIMEOUT_MS);
});
